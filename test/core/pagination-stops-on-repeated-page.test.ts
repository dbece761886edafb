/**
 * `for await` over a list must end when the service repeats a page (it made
 * 200 requests for `page=2` and never stopped): a page that does not advance ends the walk with a
 * typed error.
 */

import { describe, expect, it } from 'vitest';
import { PartnerClient, ResponseValidationError } from '../../src/index';
import { json, stubsClosedAfterEach } from '../helpers/stub-server';

const stub = stubsClosedAfterEach();

const product = (hash: string) => ({ hash, name: `Produto ${hash}` });

describe('a list whose pages do not advance', () => {
  it('stops the walk with ResponseValidationError after one repeated page', async () => {
    // Whatever page is asked for, the service answers page 1 of 5.
    const server = await stub((_req, res) =>
      json(res, 200, {
        data: [product('prd_1')],
        meta: { current_page: 1, last_page: 5, per_page: 1, total: 5 },
      }),
    );
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'page-token-1',
      logLevel: 'off',
    });
    const seen: string[] = [];
    const walk = async () => {
      for await (const item of client.products.list({ per_page: 1 })) {
        seen.push(item.hash);
        if (seen.length > 50) break;
      }
    };
    const error = await walk().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]?.code).toBe('page_not_advancing');
    expect(seen).toEqual(['prd_1']);
    expect(server.requests).toHaveLength(2);
  });

  it('still walks a list whose pages advance to the last one', async () => {
    const server = await stub((req, res) => {
      const page = Number(new URL(req.path, 'http://x').searchParams.get('page') ?? 1);
      json(res, 200, {
        data: [product(`prd_${page}`)],
        meta: { current_page: page, last_page: 3, per_page: 1, total: 3 },
      });
    });
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'page-token-1',
      logLevel: 'off',
    });
    const seen: string[] = [];
    for await (const item of client.products.list({ per_page: 1 })) seen.push(item.hash);
    expect(seen).toEqual(['prd_1', 'prd_2', 'prd_3']);
  });
});
