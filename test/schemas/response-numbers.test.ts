/**
 * Numbers a service sends otherwise than the spec's tables say (spec §2: money in integer cents
 * "where stated", some amounts plain numbers; DESIGN §5: a wrong type is a
 * `ResponseValidationError`). A Laravel service writes a decimal column as a string (`"19.90"`),
 * a float column as a fraction where cents are due (`19.9`), or a number past what JavaScript holds
 * exactly. None of them is turned into another number without saying: strict validation refuses
 * it naming the field and what was expected, `'warn'` returns the body as it came, `'off'` too.
 */

import { PartnerClient, ResponseValidationError, type ValidateResponses } from 'partner-sdk';
import { describe, expect, it, vi } from 'vitest';
import { type StubServer, stubsClosedAfterEach } from '../helpers/stub-server';

const stub = stubsClosedAfterEach();

/** A loopback service answering every call 200 with `raw`, the JSON text exactly as written. */
async function answering(raw: string): Promise<StubServer> {
  return stub((_request, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(raw);
  });
}

function sellerOf(server: StubServer, validateResponses: ValidateResponses = 'strict') {
  const warn = vi.fn();
  const client = new PartnerClient({
    baseUrl: server.baseUrl,
    clientToken: 'tok',
    validateResponses,
    logLevel: 'warn',
    logger: { warn, error: vi.fn(), info: vi.fn(), debug: vi.fn() },
  });
  return { seller: client.forUser('pub'), warn };
}

const offerWith = (price: string) => `{"code":"off_1","price":${price}}`;
const updateOffer = (server: StubServer, mode?: ValidateResponses) => {
  const { seller, warn } = sellerOf(server, mode);
  return { call: seller.offers.update('prd_1', 'off_1', { price: 1990 }), warn };
};

async function refusal(call: Promise<unknown>): Promise<ResponseValidationError> {
  const error = await call.then(
    () => expect.unreachable('the answer must be refused'),
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(ResponseValidationError);
  return error as ResponseValidationError;
}

describe('an integer field of cents (offer price, spec §2.6) as the service sends it', () => {
  it.each([
    ['19.9', 'a fraction', 'expected an integer, received a fraction'],
    ['"19.90"', 'a string of reais', 'expected a number, received a string'],
    ['"1990"', 'a string of cents', 'expected a number, received a string'],
    ['true', 'a boolean', 'expected a number, received a boolean'],
  ])('refuses %s (%s), naming the field and what was expected', async (price, _what, said) => {
    const server = await answering(offerWith(price));
    const error = await refusal(updateOffer(server).call);
    expect(error.issues).toEqual([expect.objectContaining({ path: ['price'], message: said })]);
    expect(error.message).toContain(`price: ${said}`);
    expect(error.status).toBe(200);
    expect(error.body).toEqual(JSON.parse(offerWith(price)));
    expect(server.requests).toHaveLength(1);
  });

  it.each(['1e21', '9007199254740993'])(
    'refuses %s, a whole number JavaScript cannot hold exactly, saying so',
    async (price) => {
      const server = await answering(offerWith(price));
      const error = await refusal(updateOffer(server).call);
      expect(error.issues).toEqual([expect.objectContaining({ path: ['price'] })]);
      expect(error.message).toMatch(
        /price: expected an integer JavaScript holds exactly \(at most 9007199254740991 either side of 0\)/,
      );
    },
  );

  it('reads 1990.0 as the integer 1990 and -0 as 0', async () => {
    const whole = await answering(offerWith('1990.0'));
    await expect(updateOffer(whole).call).resolves.toEqual({ code: 'off_1', price: 1990 });
    const negativeZero = await answering(offerWith('-0'));
    const offer = await updateOffer(negativeZero).call;
    expect(offer.price === 0).toBe(true);
  });

  it("with 'warn', logs the field and what was expected and returns the string as it came", async () => {
    const server = await answering(offerWith('"19.90"'));
    const { call, warn } = updateOffer(server, 'warn');
    expect(await call).toEqual({ code: 'off_1', price: '19.90' });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain(
      'price: expected a number, received a string',
    );
  });

  it("with 'off', returns the string as it came and logs nothing", async () => {
    const server = await answering(offerWith('"19.90"'));
    const { call, warn } = updateOffer(server, 'off');
    expect(await call).toEqual({ code: 'off_1', price: '19.90' });
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('the amounts of refunds (a number, spec §2.9) and anticipations (an integer, spec §2.11)', () => {
  const existing = (amount: string) =>
    `{"status":"success","message":"ok","data":{"hash":"ref_1","transaction_hash":"tx_1","status":"success","amount":${amount}}}`;

  it('refuses a refund amount sent as "19.90": the 200 named, the body kept, the request sent once', async () => {
    const server = await answering(existing('"19.90"'));
    const { seller } = sellerOf(server);
    const error = await refusal(seller.refunds.request('tx_1'));
    expect(error.status).toBe(200);
    expect(error.message).toMatch(/^POST \/financial\/refund\/tx_1 → 200 OK/);
    expect(error.message).toContain('data.amount: expected a number, received a string');
    expect(error.body).toMatchObject({ data: { amount: '19.90' } });
    expect(server.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it('reads a refund amount of 19.9 as the number the spec gives', async () => {
    const server = await answering(existing('19.9'));
    const { seller } = sellerOf(server);
    await expect(seller.refunds.request('tx_1')).resolves.toMatchObject({
      kind: 'existing',
      refund: { amount: 19.9 },
    });
  });

  it('refuses a confirmed anticipation amount of 10.5, sent once', async () => {
    const server = await answering(
      '{"amount":10.5,"status":"approved","created_at":"2024-01-01T00:00:00-03:00"}',
    );
    const { seller } = sellerOf(server);
    const error = await refusal(seller.anticipations.confirm('ant_1', { scenario: 'above' }));
    expect(error.message).toContain('amount: expected an integer, received a fraction');
    expect(server.requests).toHaveLength(1);
  });

  it('names a missing required field as required, with its type', async () => {
    const server = await answering('{"price":1990}');
    const error = await refusal(updateOffer(server).call);
    expect(error.message).toContain('code: required (expected a string)');
  });
});
