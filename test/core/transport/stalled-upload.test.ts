import { afterEach, describe, expect, it } from 'vitest';
import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  PartnerClient,
  type UserUpdateParams,
} from '../../../src/index';
import { json, type StubServer, startStub } from '../../helpers/stub-server';
import { withTimeout } from '../../helpers/waits';

// A multipart body's files are read into memory before the first attempt; a stream that stalls
// there ends the call within its bounds, as a stalled answer would, with nothing sent.

let server: StubServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const address = {
  zip_code: '01001-000',
  city: 'São Paulo',
  state: 'SP',
  country: 'Brasil',
  street: 'Praça da Sé',
  street_number: 's/n',
  neighborhood: 'Sé',
};

/** A profile whose avatar is a stream that never delivers a byte nor ends. */
const withStalledAvatar = (): UserUpdateParams => ({
  name: 'Ana Souza',
  address,
  cpf: '123.456.789-09',
  birth: '1990-04-01',
  avatar: new ReadableStream<Uint8Array>({ pull: () => new Promise<void>(() => {}) }),
});

async function sellerOf(totalTimeout = 30_000) {
  server = await startStub((_r, res) => json(res, 200, {}));
  const client = new PartnerClient({
    baseUrl: server.baseUrl,
    clientToken: 'stalled-upload-token',
    logLevel: 'off',
    totalTimeout,
  });
  return { seller: client.forUser('stalled-upload-bearer'), server };
}

describe('a stalled file stream in a multipart body', () => {
  it('ends the call as soon as the caller aborts, sending nothing', async () => {
    const { seller, server: s } = await sellerOf();
    const call = seller.users.update(withStalledAvatar(), { signal: AbortSignal.timeout(50) });
    const error = await withTimeout(
      call.catch((e: unknown) => e),
      3_000,
      'the aborted upload',
    );
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as Error).message).toBe('POST /users/update was aborted by the caller.');
    expect(s.requests).toHaveLength(0);
  });

  it('ends the call at its totalTimeout, sending nothing', async () => {
    const { seller, server: s } = await sellerOf(100);
    const call = seller.users.update(withStalledAvatar());
    const error = await withTimeout(
      call.catch((e: unknown) => e),
      3_000,
      'the timed-out upload',
    );
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toMatch(/^POST \/users\/update → no request body in time/);
    expect(s.requests).toHaveLength(0);
  });
});
