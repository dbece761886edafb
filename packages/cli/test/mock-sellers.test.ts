/**
 * `partner-sdk mock` prints every seeded seller (type, code and token), as the testing guide's
 * table lists them, not only the person seller's token it exports: a partner tries the CLI as the
 * company seller by exporting that one instead.
 */
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { cli, jsonLines, startMock } from './run-cli';

// The kit's seeded sellers are the same in every mock: a fresh one names them.
const seeded = createMockPartnerApi().sellers;

describe('partner-sdk mock names every seeded seller', { timeout: 120_000 }, () => {
  it('lists each seller with its type, code and token in JSON, the company token usable', async () => {
    const mock = startMock(['--json', 'mock', '--transactions', '0']);
    try {
      const [first] = jsonLines(await mock.printed((t) => t.includes('\n'))) as [
        { env: Record<string, string>; sellers: unknown },
      ];
      expect(first.sellers).toEqual(
        seeded.map((s) => ({ type: s.type, code: s.code, publicToken: s.publicToken })),
      );
      expect(first.env.PARTNER_API_SELLER_TOKEN).toBe(seeded.person.publicToken);
      const asCompany = await cli(['--json', 'fee-tiers', 'history'], {
        env: { ...first.env, PARTNER_API_SELLER_TOKEN: seeded.company.publicToken },
      });
      expect(asCompany.code).toBe(0);
      expect(jsonLines(asCompany.stdout)).toHaveLength(1);
    } finally {
      mock.stop();
    }
  });

  it('prints a line per seller, with its type and token, on a terminal', async () => {
    const mock = startMock(['--format', 'table', 'mock', '--transactions', '0']);
    try {
      const text = await mock.printed((t) => t.includes('Ctrl-C'));
      for (const seller of seeded) {
        const line = text
          .split('\n')
          .find((l) => l.includes(seller.publicToken) && l.startsWith('#'));
        expect(line, seller.type).toContain(seller.type);
        expect(line, seller.type).toContain(seller.code);
      }
    } finally {
      mock.stop();
    }
  });
});
