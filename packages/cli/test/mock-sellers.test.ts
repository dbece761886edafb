/**
 * `partner-sdk mock` prints every seeded seller (type, code and token), as the testing guide's
 * table lists them, not only the person seller's token it exports: a partner tries the CLI as the
 * company seller by exporting that one instead.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { CLI_ARGS, cli, jsonLines } from './run-cli';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// The kit's seeded sellers are the same in every mock: a fresh one names them.
const seeded = createMockPartnerApi().sellers;

/** Starts `partner-sdk mock` and resolves with what it printed up to `until`; stops it after. */
async function printedByMock(args: string[], until: (text: string) => boolean) {
  const child = spawn(process.execPath, [...CLI_ARGS, ...args, 'mock', '--transactions', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout.setEncoding('utf8');
  const printed = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mock printed: ${text}`)), 30_000);
    child.stdout.on('data', (chunk: string) => {
      text += chunk;
      if (until(text)) {
        clearTimeout(timer);
        resolve(text);
      }
    });
  });
  return { printed, stop: () => child.kill('SIGTERM') };
}

describe('partner-sdk mock names every seeded seller', { timeout: 120_000 }, () => {
  it('lists each seller with its type, code and token in JSON, the company token usable', async () => {
    const { printed, stop } = await printedByMock(['--json'], (t) => t.includes('\n'));
    try {
      const [first] = jsonLines(await printed) as [
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
      stop();
    }
  });

  it('prints a line per seller, with its type and token, on a terminal', async () => {
    const { printed, stop } = await printedByMock(['--format', 'table'], (t) =>
      t.includes('Ctrl-C'),
    );
    try {
      const text = await printed;
      for (const seller of seeded) {
        const line = text
          .split('\n')
          .find((l) => l.includes(seller.publicToken) && l.startsWith('#'));
        expect(line, seller.type).toContain(seller.type);
        expect(line, seller.type).toContain(seller.code);
      }
    } finally {
      stop();
    }
  });
});
