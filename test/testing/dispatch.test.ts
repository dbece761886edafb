import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMockPartnerApi, type MockServer } from '../../src/testing';

// The kit seen from outside: plain fetch over its loopback server, never the SDK, so nothing the
// SDK assumes can agree with the kit by construction.
const servers: MockServer[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function served() {
  const mock = createMockPartnerApi();
  const server = await mock.listen();
  servers.push(server);
  const seller = {
    'X-Api-Client-Token': mock.credentials.clientToken,
    Authorization: `Bearer ${mock.sellers.person.publicToken}`,
  };
  return { mock, url: server.url, seller };
}

describe('the kit routes requests as a Laravel router does', () => {
  it('answers HEAD on a GET route with its status and headers and no body', async () => {
    const { url, seller } = await served();
    const head = await fetch(`${url}/products`, { method: 'HEAD', headers: seller });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/json');
    expect(await head.text()).toBe('');
  });

  it('names the allowed methods in Allow and in the message of a 405', async () => {
    const { url, seller } = await served();
    const answer = await fetch(`${url}/products`, { method: 'DELETE', headers: seller });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, HEAD');
    expect(await answer.json()).toEqual({
      message:
        'The DELETE method is not supported for route api/v1/products. Supported methods: GET, HEAD.',
    });
    const get = await fetch(`${url}/users/update`, { headers: seller });
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('answers OPTIONS with the methods of the path in Allow and no body', async () => {
    const { mock, url } = await served();
    const answer = await fetch(`${url}/financial/refund/${mock.transactions.refundable[0]}`, {
      method: 'OPTIONS',
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('allow')).toBe('GET,HEAD,POST');
    expect(await answer.text()).toBe('');
  });

  it('names an unknown route by its path without the leading slash, as Laravel does', async () => {
    const { url, seller } = await served();
    const answer = await fetch(`${url}/nope`, { headers: seller });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ message: 'The route api/v1/nope could not be found.' });
  });

  it('matches a path with a trailing slash to its route', async () => {
    const { mock, url, seller } = await served();
    const list = await fetch(`${url}/products/?per_page=1`, { headers: seller });
    expect(list.status).toBe(200);
    const one = await fetch(`${url}/products/${mock.products.course.hash}/`, { headers: seller });
    expect(((await one.json()) as { hash: string }).hash).toBe(mock.products.course.hash);
  });
});

describe('the kit checks credentials before it reads the body', () => {
  it('answers 401, not 400, to a malformed body sent without a client token', async () => {
    const { mock, url } = await served();
    const answer = await fetch(`${url}/financial/refund/${mock.transactions.refundable[0]}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(answer.status).toBe(401);
    expect(await answer.json()).toEqual({ message: 'Unauthenticated.' });
  });

  it('answers 401 to a malformed body sent without the seller bearer', async () => {
    const { mock, url } = await served();
    const answer = await fetch(`${url}/financial/refund/${mock.transactions.refundable[0]}`, {
      method: 'POST',
      headers: {
        'X-Api-Client-Token': mock.credentials.clientToken,
        'content-type': 'application/json',
      },
      body: '{',
    });
    expect(answer.status).toBe(401);
  });

  it('still answers 400 to a malformed body from an authenticated caller', async () => {
    const { mock, url, seller } = await served();
    const answer = await fetch(`${url}/financial/refund/${mock.transactions.refundable[0]}`, {
      method: 'POST',
      headers: { ...seller, 'content-type': 'application/json' },
      body: '{',
    });
    expect(answer.status).toBe(400);
  });

  it('answers 400 to JSON holding an escaped lone surrogate, which PHP json_decode refuses', async () => {
    const { mock, url, seller } = await served();
    const hash = mock.transactions.refundable[0];
    for (const body of ['{"reason":"caf\\ud800"}', '{"\\udc00":"x"}']) {
      const answer = await fetch(`${url}/financial/refund/${hash}`, {
        method: 'POST',
        headers: { ...seller, 'content-type': 'application/json' },
        body,
      });
      expect(answer.status).toBe(400);
    }
    // A whole pair escaped is an emoji, read as such.
    const answer = await fetch(`${url}/financial/refund/${hash}`, {
      method: 'POST',
      headers: { ...seller, 'content-type': 'application/json' },
      body: '{"reason":"caf\\ud83d\\ude00"}',
    });
    expect(answer.status).toBe(202);
  });

  it('answers 400 to JSON whose bytes are not UTF-8, which PHP json_decode refuses', async () => {
    const { mock, url, seller } = await served();
    const hash = mock.transactions.refundable[0];
    // `{"reason":"caf` then 0xE9 (é in Latin-1, no UTF-8 at all), then `"}`.
    const latin1 = Uint8Array.from([...Buffer.from('{"reason":"caf'), 0xe9, ...Buffer.from('"}')]);
    const answer = await fetch(`${url}/financial/refund/${hash}`, {
      method: 'POST',
      headers: { ...seller, 'content-type': 'application/json' },
      body: latin1,
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ message: 'The request body could not be parsed.' });
    expect(mock.requests.at(-1)?.body).toBeUndefined();
  });
});

describe('the kit reads the bodies a Laravel service reads', () => {
  it('reads a form-urlencoded body on a JSON endpoint, as Laravel merges it into the input', async () => {
    const { mock, url, seller } = await served();
    const answer = await fetch(`${url}/financial/refund/${mock.transactions.refundable[0]}`, {
      method: 'POST',
      headers: { ...seller, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ reason: 'x'.repeat(1001), fraud_confirmed: 'maybe' }),
    });
    expect(answer.status).toBe(422);
    expect(((await answer.json()) as { errors: unknown }).errors).toEqual({
      reason: ['The reason must not be greater than 1000 characters.'],
      fraud_confirmed: ['The fraud confirmed field must be true or false.'],
    });
  });

  it('logs in with a form-urlencoded body', async () => {
    const { mock, url } = await served();
    const answer = await fetch(`${url}/auth`, {
      method: 'POST',
      body: new URLSearchParams({
        client_id: mock.credentials.clientId,
        client_secret: mock.credentials.clientSecret,
      }),
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ client_token: expect.any(String) });
  });

  it('reads a multipart POST on a JSON endpoint, with bracket keys', async () => {
    const { url, seller } = await served();
    const form = new FormData();
    form.set('format', 'csv');
    form.set('filter[betweenDates]', '31/02/2025,01/03/2025');
    const answer = await fetch(`${url}/financial/account-statement/export-report`, {
      method: 'POST',
      headers: seller,
      body: form,
    });
    expect(answer.status).toBe(422);
    expect(Object.keys(((await answer.json()) as { errors: object }).errors)).toEqual([
      'filter.betweenDates',
    ]);
  });
});

describe('the kit refuses a body over PHP’s post_max_size, as Laravel’s ValidatePostSize does', () => {
  const huge = JSON.stringify({ observation: 'x'.repeat(9 * 1024 * 1024) });

  it('answers 413 over the loopback server, before credentials are looked at', async () => {
    const { mock, url } = await served();
    const answer = await fetch(`${url}/financial/refund/${mock.transactions.refundable[0]}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: huge,
    });
    expect(answer.status).toBe(413);
    expect(await answer.json()).toEqual({ message: 'The POST data is too large.' });
    expect(mock.requests.at(-1)?.body).toBeUndefined();
  });

  it('answers 413 on the fetch face, and takes a body just under the limit', async () => {
    const { mock, seller } = await served();
    const post = (body: string) =>
      mock.fetch(`${mock.baseUrl}/financial/refund/${mock.transactions.refundable[0]}`, {
        method: 'POST',
        headers: { ...seller, 'content-type': 'application/json' },
        body,
      });
    expect((await post(huge)).status).toBe(413);
    const under = JSON.stringify({ observation: 'x'.repeat(7 * 1024 * 1024) });
    expect((await post(under)).status).toBe(202);
  });
});

describe('the kit dates every answer with its clock', () => {
  it('sends Date on injected failures, the origin 403 and the rate limit 429 too', async () => {
    const mock = createMockPartnerApi({ rateLimit: { requestsPerSecond: 1, burst: 1 } });
    mock.advanceClock(3 * 86_400_000);
    const expected = () => new Date(mock.now()).toUTCString().slice(0, 16);
    const get = () =>
      mock.fetch(`${mock.baseUrl}/products`, {
        headers: { 'X-Api-Client-Token': mock.credentials.clientToken },
      });
    mock.failNext({ status: 503 });
    const injected = await get();
    expect(injected.status).toBe(503);
    expect(injected.headers.get('date')?.slice(0, 16)).toBe(expected());
    const limited = await get();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('date')?.slice(0, 16)).toBe(expected());
    mock.setRateLimit(undefined);
    mock.setOriginAllowed(false);
    const refused = await get();
    expect(refused.status).toBe(403);
    expect(refused.headers.get('date')?.slice(0, 16)).toBe(expected());
  });
});

describe('the kit reads JSON as PHP’s json_decode does', () => {
  it('answers 400, never a 500, to JSON nested deeper than json_decode reads', async () => {
    const { mock, seller } = await served();
    const post = (depth: number, trx: string) =>
      mock.fetch(`${mock.baseUrl}/financial/refund/${trx}`, {
        method: 'POST',
        headers: { ...seller, 'content-type': 'application/json' },
        body: `{"observation":"x","a":${'['.repeat(depth)}${']'.repeat(depth)}}`,
      });
    const [first, second] = mock.transactions.refundable as [string, string];
    expect((await post(50_000, first)).status).toBe(400);
    expect((await post(500, second)).status).toBe(202);
    // Brackets inside a string are text, not nesting.
    const text = await mock.fetch(
      `${mock.baseUrl}/financial/refund/${mock.transactions.refundable[2]}`,
      {
        method: 'POST',
        headers: { ...seller, 'content-type': 'application/json' },
        body: JSON.stringify({ observation: `"\\${'['.repeat(1_000)}` }),
      },
    );
    expect(text.status).toBe(202);
  });
});

describe('the kit answers its own crash as a production Laravel service does', () => {
  it('answers 500 {"message":"Server Error"}, the exception kept out of the body', async () => {
    const { mock, seller } = await served();
    // The route's answer is the first JSON the kit writes; make writing it throw once.
    vi.spyOn(JSON, 'stringify').mockImplementationOnce(() => {
      throw new Error('secret detail of the kit');
    });
    const crashed = await mock.fetch(`${mock.baseUrl}/products`, { headers: seller });
    expect(crashed.status).toBe(500);
    expect(await crashed.json()).toEqual({ message: 'Server Error' });
  });
});
