/**
 * An error status whose body breaks off part way (a `Content-Length` longer than what was sent,
 * or a chunked body closed before its last chunk): the `APIError` of that status keeps on `body`
 * the start that did arrive, secrets redacted, as it keeps the start of a body that failed to
 * decode; the status alone decides whether the call is repeated.
 */

import {
  APIError,
  InternalServerError,
  PartnerClient,
  UnprocessableEntityError,
} from 'partner-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { type Spoilt, spoilAnswer } from '../../helpers/lossy-proxy';
import {
  json,
  type StubHandler,
  type StubServer,
  sequence,
  startStub,
} from '../../helpers/stub-server';

const TOKEN = 'broken-body-client-token-1';
const PRODUCT = { hash: 'prd_1', name: 'Curso', category_id: 12, refund_deadline: 7 };

let server: StubServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** An error body that echoes the client's token early on, long enough to be cut in half. */
function errorBody(token: string): Buffer {
  const detail = Array.from({ length: 200 }, (_, i) => `line ${i}`).join('; ');
  return Buffer.from(JSON.stringify({ message: `refused for ${token}`, detail }));
}

async function clientFor(how: Spoilt, status: number, maxRetries = 0) {
  const spoilt: StubHandler = (_request, res) => spoilAnswer(how, res, status, errorBody(TOKEN));
  server = await startStub(sequence(spoilt, (_request, res) => json(res, 200, PRODUCT)));
  return new PartnerClient({
    baseUrl: server.baseUrl,
    clientToken: TOKEN,
    logLevel: 'off',
    maxRetries,
  });
}

describe('an error status whose body broke off', () => {
  it.each([
    ['cut-body-after', 422, UnprocessableEntityError],
    ['cut-chunked-after', 422, UnprocessableEntityError],
    ['cut-body-after', 503, InternalServerError],
    ['cut-chunked-after', 503, InternalServerError],
  ] as const)('%s under %i keeps the start that arrived, redacted', async (how, status, kind) => {
    const client = await clientFor(how, status);

    const error = await client.products.retrieve('prd_1').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(kind);
    expect((error as APIError).status).toBe(status);
    const kept = (error as APIError).body;
    expect(typeof kept).toBe('string');
    const sent = errorBody('[REDACTED]').toString();
    expect(sent.startsWith(kept as string)).toBe(true);
    expect((kept as string).length).toBeGreaterThan(sent.length / 3);
    expect(JSON.stringify(error)).not.toContain(TOKEN);
  });

  it('is retried by its status as before: a 503 is repeated, a 422 is not', async () => {
    const retried = await clientFor('cut-body-after', 503, 1);
    await expect(retried.products.retrieve('prd_1')).resolves.toMatchObject({ name: 'Curso' });
    expect(server!.requests).toHaveLength(2);
    await server!.close();

    const refused = await clientFor('cut-chunked-after', 422, 2);
    await expect(refused.products.retrieve('prd_1')).rejects.toBeInstanceOf(APIError);
    expect(server!.requests).toHaveLength(1);
  });
});
