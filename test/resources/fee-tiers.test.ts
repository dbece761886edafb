import { describe, expect, expectTypeOf, it } from 'vitest';
import { type FeeTierChange, ResponseValidationError } from '../../src/index';
import { envelope, wireFeeTierChange } from '../helpers/kit-fixtures';
import {
  CLIENT_TOKEN,
  makeClient,
  onlyRequest,
  PUBLIC_TOKEN,
  rejectionOf,
  reply,
  useMockApi,
} from '../helpers/msw-api';

useMockApi();

describe('feeTiers.history', () => {
  it('sends GET /users/fee-tiers/history with no parameters and returns the records', async () => {
    reply('get', '/users/fee-tiers/history', envelope([wireFeeTierChange()]));
    const changes = await makeClient().forUser(PUBLIC_TOKEN).feeTiers.history();

    const sent = onlyRequest();
    expect(sent.method).toBe('GET');
    expect(sent.path).toBe('/users/fee-tiers/history');
    expect(sent.query).toEqual({});
    expect(sent.headers.get('x-api-client-token')).toBe(CLIENT_TOKEN);
    expect(sent.headers.get('authorization')).toBe(`Bearer ${PUBLIC_TOKEN}`);
    expect(await sent.text()).toBe('');
    expect(changes).toEqual([wireFeeTierChange()]);
    expect(changes[0]?.changed_by?.email).toBe(wireFeeTierChange().changed_by?.email);
    expectTypeOf(changes).toEqualTypeOf<FeeTierChange[]>();
  });

  it('reads unknown actions, null fields and extra keys', async () => {
    const odd = {
      ...wireFeeTierChange(),
      action: 'restore',
      old: null,
      changed_by: { name: null, email: 'op@partner.test', id: 3 },
      tier_id: 9,
    };
    reply('get', '/users/fee-tiers/history', envelope([odd]));
    expect(await makeClient().feeTiers.history()).toEqual([odd]);
  });

  it('throws ResponseValidationError naming a wrong-typed field', async () => {
    const body = envelope([{ ...wireFeeTierChange(), observation: ['not', 'text'] }]);
    reply('get', '/users/fee-tiers/history', body);
    const error = (await rejectionOf(makeClient().feeTiers.history())) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues.map((i) => i.path)).toEqual([['data', 0, 'observation']]);
    expect(error.body).toEqual(body);
  });

  it('gives status and headers through .withResponse()', async () => {
    reply('get', '/users/fee-tiers/history', envelope([]), { headers: { 'x-cache': 'hit' } });
    const { data, response } = await makeClient().feeTiers.history().withResponse();
    expect(data).toEqual([]);
    expect(response.headers.get('x-cache')).toBe('hit');
  });

  it('exports the result type from the package entry', () => {
    expectTypeOf(makeClient().feeTiers.history).returns.resolves.toEqualTypeOf<FeeTierChange[]>();
    expectTypeOf<FeeTierChange['action']>().toExtend<string | null | undefined>();
  });
});
