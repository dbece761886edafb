/**
 * A body no request can carry as given is bad input, refused with a typed error naming where it
 * is, before anything is sent: one that contains itself (a cycle), and one nested far deeper than
 * any body of this API (which would overflow the stack of every walk over it, `JSON.stringify`
 * included). Through each way a body is given: a resource method's parameters, a raw
 * `client.request()` body, and `extraBody`.
 */

import { RequestValidationError } from 'partner-sdk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { kitClientsAt } from '../../helpers/kit-clients';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function service() {
  const mock = createMockPartnerApi();
  const server = await mock.listen();
  closers.push(() => server.close());
  return kitClientsAt(mock, server.url);
}

/** `{ a: { a: … } }`, `depth` objects deep, built without recursion. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 0; level < depth; level++) value = { a: value };
  return value;
}

/** An object holding itself two levels down: `cyclic.a.self === cyclic.a`. */
function cyclic(): Record<string, unknown> {
  const inner: Record<string, unknown> = { note: 'x' };
  inner.self = inner;
  return { a: inner };
}

/** The error of a call refused before sending; fails when the call was sent or settled. */
async function refusal(
  mock: ReturnType<typeof createMockPartnerApi>,
  call: () => Promise<unknown>,
): Promise<RequestValidationError> {
  const error = await call().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(RequestValidationError);
  expect(mock.requests).toHaveLength(0);
  return error as RequestValidationError;
}

const DEEP = 100_000;

describe('a body nested 100,000 deep', () => {
  it('is refused as a resource method parameter, naming where it starts and the bound', async () => {
    const { mock, client } = await service();
    const error = await refusal(mock, () =>
      client.refunds.request(mock.transactions.withPastRefund, { reason: nested(DEEP) as never }),
    );
    expect(error.issues[0]?.path).toEqual(['reason', 'a']);
    expect(error.message).toMatch(/reason\.a: nests deeper than 1,?000 levels/);
  });

  it('is refused as a raw client.request() body', async () => {
    const { mock, client } = await service();
    const error = await refusal(mock, () =>
      client.request({ method: 'POST', path: '/anything', body: { top: nested(DEEP) } }),
    );
    expect(error.issues[0]?.path).toEqual(['top', 'a']);
    expect(error.message).toMatch(/top\.a: nests deeper than 1,?000 levels/);
  });

  it('is refused as extraBody', async () => {
    const { mock, client } = await service();
    const error = await refusal(mock, () =>
      client.refunds.request(mock.transactions.withPastRefund, { reason: 'duplicate' } as never, {
        extraBody: { extra: nested(DEEP) },
      }),
    );
    expect(error.issues[0]?.path).toEqual(['extra', 'a']);
    expect(error.message).toMatch(/extra\.a: nests deeper than 1,?000 levels/);
  });

  it('leaves a body nested a few levels to be sent', async () => {
    const { mock, client } = await service();
    await client
      .request({ method: 'POST', path: '/anything', body: { top: nested(20) } })
      .catch(() => {});
    expect(mock.requests.filter((r) => r.path.endsWith('/anything'))).toHaveLength(1);
  });
});

describe('a body that contains itself', () => {
  it('is refused as a resource method parameter, named as a cycle where it closes', async () => {
    const { mock, client } = await service();
    const error = await refusal(mock, () =>
      client.refunds.request(mock.transactions.withPastRefund, { reason: cyclic() as never }),
    );
    expect(error.issues[0]?.path).toEqual(['reason', 'a', 'self']);
    expect(error.message).toMatch(/reason\.a\.self: is a cycle/);
  });

  it('is refused as a raw client.request() body, named as a cycle', async () => {
    const { mock, client } = await service();
    const error = await refusal(mock, () =>
      client.request({ method: 'POST', path: '/anything', body: cyclic() }),
    );
    expect(error.issues[0]?.path).toEqual(['a', 'self']);
    expect(error.message).toMatch(/a\.self: is a cycle/);
  });

  it('is refused as extraBody, named as a cycle', async () => {
    const { mock, client } = await service();
    const error = await refusal(mock, () =>
      client.refunds.request(mock.transactions.withPastRefund, { reason: 'duplicate' } as never, {
        extraBody: cyclic(),
      }),
    );
    expect(error.issues[0]?.path).toEqual(['a', 'self']);
    expect(error.message).toMatch(/a\.self: is a cycle/);
  });

  it('leaves one object given twice, side by side, to be sent', async () => {
    const { mock, client } = await service();
    const shared = { note: 'x' };
    await client
      .request({ method: 'POST', path: '/anything', body: { one: shared, two: shared } })
      .catch(() => {});
    expect(mock.requests.filter((r) => r.path.endsWith('/anything'))).toHaveLength(1);
  });
});
