import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  PartnerClient,
} from '../../../src/index';
import { type StubServer, startStub } from '../../helpers/stub-server';
import { nextTurn, sleep, waitFor, withTimeout } from '../../helpers/waits';

// The response body is read by the transport itself, after ky has returned the headers: these
// tests pin what bounds that read (the attempt's timeout, the call's totalTimeout and the
// caller's signal) and that a slow but steady body arrives whole.

let server: StubServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const clientFor = (
  s: StubServer,
  options: { timeout?: number; totalTimeout?: number; fetch?: typeof fetch } = {},
) =>
  new PartnerClient({
    baseUrl: s.baseUrl,
    clientToken: 'body-token-1',
    logLevel: 'off',
    maxRetries: 0,
    ...options,
  });

// A full garbage collection on demand, as a busy process would run one at any moment.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

describe('reading the response body', () => {
  it('reads a body sent in slow chunks, multi-byte characters split across them, whole', async () => {
    const text = JSON.stringify({ data: 'ação '.repeat(2_000) });
    const bytes = Buffer.from(text);
    server = await startStub(async (_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // Cut inside a two-byte character ('ç'), so decoding must carry it over.
      const cut = bytes.indexOf(Buffer.from('ç')) + 1;
      res.write(bytes.subarray(0, cut));
      // A pause between the chunks, so they reach the client apart: the point of this test.
      await sleep(50);
      res.end(bytes.subarray(cut));
    });
    const { data, response } = await clientFor(server)
      .request({ method: 'GET', path: '/x' })
      .withResponse();
    expect(data).toEqual(JSON.parse(text));
    expect(response.bodyUsed).toBe(true);
  });

  it("reads a slow body whole while the attempt's timeout allows", async () => {
    server = await startStub(async (_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"slow":');
      // A slow body: how long it takes is what this test is about.
      await sleep(200);
      res.end('true}');
    });
    const data = await clientFor(server, { timeout: 3_000, totalTimeout: 5_000 }).request({
      method: 'GET',
      path: '/x',
    });
    expect(data).toEqual({ slow: true });
  });

  it('ends a stalled body at totalTimeout with APIConnectionTimeoutError', async () => {
    server = await startStub((_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":');
    });
    const started = Date.now();
    const error = await clientFor(server, { timeout: 5_000, totalTimeout: 300 })
      .request({ method: 'GET', path: '/x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  /**
   * A call whose body stalls after its first bytes, once its headers have arrived (the SDK is then
   * reading the body): its outcome, and how to abort it.
   */
  async function stalledCall() {
    server = await startStub((_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":');
    });
    const controller = new AbortController();
    let headersIn = false;
    const noticingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      headersIn = true;
      return response;
    };
    const outcome = clientFor(server, { fetch: noticingFetch })
      .request({ method: 'GET', path: '/x' }, { signal: controller.signal })
      .catch((e: unknown) => e);
    await waitFor(() => headersIn, 'the stalled answer to arrive');
    await nextTurn();
    return { controller, outcome };
  }

  it('ends a stalled body promptly when the caller aborts, with APIUserAbortError', async () => {
    const { controller, outcome } = await stalledCall();
    const abortedAt = Date.now();
    controller.abort();
    expect(await outcome).toBeInstanceOf(APIUserAbortError);
    expect(Date.now() - abortedAt).toBeLessThan(1_000);
  });

  it('ends a stalled body when the caller aborts after a garbage collection', async () => {
    // fetch links the caller's signal to the body only weakly: after a collection, an abort used
    // to be lost and the call hung until totalTimeout.
    const { controller, outcome } = await stalledCall();
    collectGarbage();
    controller.abort();
    expect(await withTimeout(outcome, 2_000, 'the aborted call to end')).toBeInstanceOf(
      APIUserAbortError,
    );
  });

  it('retries a read whose connection breaks off mid-body, as any lost connection', async () => {
    let answers = 0;
    server = await startStub((_r, res, raw) => {
      answers += 1;
      const body = JSON.stringify({ hash: 'prd_1', name: 'Curso' });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      if (answers > 1) {
        res.end(body.padEnd(500, ' '));
        return;
      }
      res.write(body.slice(0, 10));
      setTimeout(() => raw.socket.destroy(), 20);
    });
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'body-token-1',
      logLevel: 'off',
    });
    await expect(client.products.retrieve('prd_1')).resolves.toMatchObject({ hash: 'prd_1' });
    expect(answers).toBe(2);
  });

  it('reports a body broken off as a connection failure naming the answer, when it is not retried', async () => {
    server = await startStub((_r, res, raw) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"hash":"prd_1"');
      setTimeout(() => raw.socket.destroy(), 20);
    });
    const error = await clientFor(server)
      .products.retrieve('prd_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(
      /^GET \/products\/prd_1 → 200 OK, but its body broke off after 15 bytes: /,
    );
    expect(error).toMatchObject({ status: 200, body: '{"hash":"prd_1"' });
  });

  it.each([1, 3])(
    'reads JSON behind a byte-order mark and a wrong content-type, in %i chunk(s)',
    async (chunks) => {
      const bytes = Buffer.from(`\uFEFF${JSON.stringify({ hash: 'prd_1', name: 'Ação' })}`);
      server = await startStub(async (_r, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8' });
        const size = Math.ceil(bytes.length / chunks);
        for (let at = 0; at < bytes.length; at += size) {
          res.write(bytes.subarray(at, at + size));
          await sleep(5);
        }
        res.end();
      });
      await expect(clientFor(server).products.retrieve('prd_1')).resolves.toEqual({
        hash: 'prd_1',
        name: 'Ação',
      });
    },
  );

  it('gives undefined for an empty body', async () => {
    server = await startStub((_r, res) => {
      res.writeHead(204);
      res.end();
    });
    expect(await clientFor(server).request({ method: 'GET', path: '/x' })).toBeUndefined();
  });
});

describe('a download the caller streams', () => {
  /** A file whose body stalls after its first line, downloaded with a signal and its first chunk read. */
  async function stalledDownload() {
    server = await startStub((_r, res) => {
      res.writeHead(200, { 'content-type': 'text/csv', 'x-file': 'statement' });
      res.write('date,amount\n');
    });
    const controller = new AbortController();
    const url = `${server.baseUrl}/exports/exp_1/file?X-Signature=s3cr3t`;
    const response = await clientFor(server).statements.download(
      { url },
      { signal: controller.signal },
    );
    const reader = response.body!.getReader();
    const first = await reader.read();
    const next = reader.read().then(
      () => 'a chunk',
      (error: unknown) => error,
    );
    return { controller, response, first, next, url };
  }

  it('keeps the status, headers and URL of the file', async () => {
    const { controller, response, first, url } = await stalledDownload();
    expect(response.status).toBe(200);
    expect(response.headers.get('x-file')).toBe('statement');
    expect(response.url).toBe(url);
    expect(new TextDecoder().decode(first.value)).toBe('date,amount\n');
    controller.abort();
  });

  it("fails the stream with the signal's reason when the caller aborts", async () => {
    const { controller, next } = await stalledDownload();
    const reason = new Error('stop downloading');
    controller.abort(reason);
    expect(await next).toBe(reason);
  });

  it('fails the stream on abort even after a garbage collection', async () => {
    // As for the SDK's own body read: fetch's link from the signal to the body may be collected.
    const { controller, next } = await stalledDownload();
    collectGarbage();
    // Weak references are cleared, and their finalizers run, a moment after a collection: no
    // event says when, so this gives them that moment before collecting again.
    await sleep(20);
    collectGarbage();
    controller.abort();
    const settled = await withTimeout(next, 2_000, 'the aborted stream to fail');
    expect(settled).toBeInstanceOf(DOMException);
    expect((settled as DOMException).name).toBe('AbortError');
  });

  it('streams a whole file that ends, and lets the caller cancel one it does not want', async () => {
    server = await startStub(async (_r, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write('a,b\n');
      // A file that arrives in two pieces, apart.
      await sleep(20);
      res.end('1,2\n');
    });
    const controller = new AbortController();
    const download = () =>
      clientFor(server!).statements.download(
        { url: `${server!.baseUrl}/f.csv` },
        { signal: controller.signal },
      );
    expect(await (await download()).text()).toBe('a,b\n1,2\n');
    await expect((await download()).body!.cancel('not needed')).resolves.toBeUndefined();
    controller.abort();
  });
});
