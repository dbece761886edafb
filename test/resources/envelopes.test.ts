import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { envelope } from '../../src/index';
import { makeClient, PUBLIC_TOKEN, reply, useMockApi } from '../helpers/msw-api';

useMockApi();

const CHANGE = {
  action: 'update',
  observation: 'Tier raised',
  created_at: '2026-01-02T03:04:05.000000Z',
};
const BODY = {
  status: 'success',
  message: 'Fee tier history retrieved successfully.',
  data: [CHANGE],
};

describe('responses in the envelope', () => {
  it.each(['strict', 'warn', 'off'] as const)(
    "give a method the envelope's data with validateResponses %j",
    async (validateResponses) => {
      reply('get', '/users/fee-tiers/history', BODY);
      const seller = makeClient({ validateResponses }).forUser(PUBLIC_TOKEN);
      expect(await seller.feeTiers.history()).toEqual([CHANGE]);
    },
  );

  it("come whole through request() with a caller's own envelope schema", async () => {
    reply('get', '/users/fee-tiers/history', BODY);
    const body = await makeClient()
      .forUser(PUBLIC_TOKEN)
      .request({
        method: 'GET',
        path: '/users/fee-tiers/history',
        schema: envelope(z.array(z.looseObject({ action: z.string() }))),
      });
    expect(body).toEqual(BODY);
  });
});
