import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIUserAbortError,
  ExportFailedError,
  NotFoundError,
  PartnerClient,
  PermissionDeniedError,
  PollTimeoutError,
  RequestValidationError,
} from '../../src/index';
import { requestsTo, serversClosedAfterEach } from '../helpers/leak-check';
import { json } from '../helpers/stub-server';
import { waitFor, withTimeout } from '../helpers/waits';

const { mockApi, stub } = serversClosedAfterEach();

/** A client whose service is unreachable, without retries: a download from a file host's origin needs nothing of it. */
const offServiceClient = () =>
  new PartnerClient({
    baseUrl: 'https://api.invalid/api/v1',
    clientToken: 'tok',
    logLevel: 'off',
    maxRetries: 0,
  });

const params = { format: 'csv', filter: { betweenDates: '01/02/2025,28/02/2025' } };
const EXPORT_PATH = '/financial/account-statement/export-report';

describe('statements.waitForExport against the mock API', () => {
  it('waits until the url is set, then downloads the file', async () => {
    const { mock, client } = await mockApi({ exportPolls: 2 });
    const exported = await client.statements.export(params);
    expect(exported).toMatchObject({ status: 'processing', url: null, alreadyRunning: false });
    const seen: Array<string | undefined> = [];

    const finished = await client.statements.waitForExport(exported, {
      interval: 10,
      onStatus: (status) => seen.push(status),
    });

    expect(finished).toMatchObject({ hash: exported.hash, url: expect.any(String) });
    expect(seen).toEqual(['processing', 'completed']);
    expect(requestsTo(mock, 'GET', `${EXPORT_PATH}/${exported.hash}`)).toHaveLength(3);

    const response = await client.statements.download(finished);
    expect(response.status).toBe(200);
    expect(response.bodyUsed).toBe(false);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    const text = new TextDecoder().decode(await response.arrayBuffer());
    expect(text.split('\r\n')[0]).toBe('data;descricao;tipo;valor;saldo');
    expect(text).toContain('01/02/2025');
  });

  it('waits on an export already running (409) instead of starting another', async () => {
    const { mock, client } = await mockApi();
    const first = await client.statements.export(params);
    const again = await client.statements.export(params);
    expect(again).toMatchObject({ hash: first.hash, alreadyRunning: true });

    const [a, b] = await Promise.all([
      client.statements.waitForExport(first, { interval: 10 }),
      client.statements.waitForExport(again, { interval: 10 }),
    ]);
    expect(a.url).toBeTruthy();
    expect(b.url).toBe(a.url);
    // Every poll went to the one export.
    const polls = mock.requests.filter((r) => r.method === 'GET' && r.path.startsWith(EXPORT_PATH));
    expect(new Set(polls.map((r) => r.path))).toEqual(new Set([`${EXPORT_PATH}/${first.hash}`]));
  });

  it('rejects with ExportFailedError carrying the export when it fails', async () => {
    const { mock, client } = await mockApi();
    const exported = await client.statements.export(params);
    mock.exportOutcome(exported.hash, 'failed', { polls: 1 });
    const error = await client.statements
      .waitForExport(exported.hash, { interval: 10 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExportFailedError);
    expect((error as ExportFailedError).export).toMatchObject({
      hash: exported.hash,
      status: 'failed',
    });
    expect((error as Error).message).toContain(exported.hash);
  });

  it("ends with ExportFailedError on the other failure status the guide names, 'error'", async () => {
    const server = await stub((_r, res) =>
      json(res, 200, {
        status: 'success',
        message: 'ok',
        data: { hash: 'exp_9', status: 'error', url: null },
      }),
    );
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'tok',
      logLevel: 'off',
    });
    const error = await client.statements
      .waitForExport('exp_9', { interval: 10 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExportFailedError);
    expect((error as ExportFailedError).export).toMatchObject({ hash: 'exp_9', status: 'error' });
    expect(server.requests).toHaveLength(1);
  });

  it('resolves an export that already has its url at once, with no request', async () => {
    const { mock, client } = await mockApi();
    const done = { hash: 'exp_1', status: 'completed', url: 'https://files.example/exp_1.csv' };
    await expect(client.statements.waitForExport(done)).resolves.toBe(done);
    expect(mock.requests).toHaveLength(0);
  });

  it("ends at once when its signal aborts mid-sleep, with APIUserAbortError whose cause is the signal's reason", async () => {
    const { mock, client } = await mockApi({ exportPolls: 1_000 });
    const exported = await client.statements.export(params);
    const controller = new AbortController();
    let polled = false;
    const waiting = client.statements
      .waitForExport(exported, {
        interval: 60_000,
        signal: controller.signal,
        onStatus: () => {
          polled = true;
        },
      })
      .catch((e: unknown) => e);
    await waitFor(() => polled, 'the first poll to be answered');
    controller.abort('operator stop');
    const error = await withTimeout(waiting, 2_000, 'the aborted wait');
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as APIUserAbortError).cause).toBe('operator stop');
    expect(requestsTo(mock, 'GET', `${EXPORT_PATH}/${exported.hash}`)).toHaveLength(1);
  });

  it('throws PollTimeoutError with the last status on a tiny timeout', async () => {
    const { client } = await mockApi({ exportPolls: 1_000 });
    const exported = await client.statements.export(params);
    const error = await client.statements
      .waitForExport(exported, { interval: 10, timeout: 500 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error).toMatchObject({ lastStatus: 'processing' });
  });
});

describe('statements.waitForExport takes a last RequestOptions, as every method does', () => {
  it('sends its headers on every poll and applies its maxRetries to each', async () => {
    const { mock, client } = await mockApi({ exportPolls: 2 });
    const exported = await client.statements.export(params);
    const headers = { 'X-Correlation-Id': 'close-2025-02' };

    const finished = await client.statements.waitForExport(exported, { interval: 10 }, { headers });

    expect(finished.url).toEqual(expect.any(String));
    const polls = mock.requests.filter((r) => r.path === `${EXPORT_PATH}/${exported.hash}`);
    expect(polls).toHaveLength(3);
    expect(polls.map((r) => r.headers['x-correlation-id'])).toEqual(
      polls.map(() => 'close-2025-02'),
    );
    mock.failNext({ status: 503, path: `${EXPORT_PATH}/${exported.hash}` });
    await expect(
      client.statements.waitForExport(exported.hash, { interval: 10 }, { maxRetries: 0 }),
    ).rejects.toMatchObject({ status: 503 });
  });
});

describe('statements.download', () => {
  it('sends no SDK credentials to a file URL on another origin', async () => {
    const files = await stub((_r, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.end('a;b\r\n1;2\r\n');
    });
    const api = await stub((_r, res) => json(res, 500, {}));
    const seller = new PartnerClient({
      baseUrl: api.baseUrl,
      clientToken: 'tok-async',
      logLevel: 'off',
    }).forUser('seller-public-token');

    const response = await seller.statements.download({
      url: `${files.origin}/exports/exp_1.csv?X-Signature=abc`,
    });
    expect(await response.text()).toBe('a;b\r\n1;2\r\n');
    expect(api.requests).toHaveLength(0);
    expect(files.requests[0]?.path).toBe('/exports/exp_1.csv?X-Signature=abc');
    const headers = files.requests[0]?.headers ?? {};
    expect(headers['x-api-client-token']).toBeUndefined();
    expect(headers.authorization).toBeUndefined();
  });

  it('sends credentials to a file URL on its own origin, but not across a redirect to another origin', async () => {
    const files = await stub((_r, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.end('x;y\r\n');
    });
    // The signature is remembered as a secret for the rest of this worker's files (they share the
    // SDK's modules): a value no other test's text contains, so it masks nothing of theirs.
    const api = await stub((_r, res) => {
      res.writeHead(302, { location: `${files.origin}/signed/exp_1.csv?sig=Zm9yLWV4cF8x` });
      res.end();
    });
    const client = new PartnerClient({
      baseUrl: api.baseUrl,
      clientToken: 'tok-async',
      logLevel: 'off',
    });

    const response = await client.statements.download({ url: `${api.baseUrl}/exports/exp_1/file` });
    expect(await response.text()).toBe('x;y\r\n');
    expect(api.requests[0]?.headers['x-api-client-token']).toBe('tok-async');
    expect(files.requests).toHaveLength(1);
    expect(files.requests[0]?.headers['x-api-client-token']).toBeUndefined();
  });

  it('gives up on a redirect loop', async () => {
    const api = await stub((request, res) => {
      res.writeHead(302, { location: `/api/v1/loop${request.path}` });
      res.end();
    });
    const client = new PartnerClient({ baseUrl: api.baseUrl, clientToken: 'tok', logLevel: 'off' });
    await expect(client.statements.download({ url: `${api.baseUrl}/file` })).rejects.toBeInstanceOf(
      APIConnectionError,
    );
    expect(api.requests).toHaveLength(6);
  });

  it('returns the response before the whole body has arrived, for streaming', async () => {
    let finish: () => void = () => {};
    const files = await stub(async (_r, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write('first;');
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
      res.end('rest');
    });
    const client = new PartnerClient({
      baseUrl: 'https://api.invalid/api/v1',
      clientToken: 'tok',
      logLevel: 'off',
    });
    const response = await client.statements.download({ url: `${files.origin}/f.bin` });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    // The server holds the rest until finish(): what arrives first is 'first;', in one chunk or
    // several (a loaded machine may split it), and the stream has not ended.
    let head = '';
    while (head.length < 'first;'.length) {
      const chunk = await reader.read();
      expect(chunk.done).toBe(false);
      head += decoder.decode(chunk.value, { stream: true });
    }
    expect(head).toBe('first;');
    finish();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest += decoder.decode(chunk.value, { stream: true });
    }
    expect(rest).toBe('rest');
  });

  it('turns an error status into a typed error', async () => {
    const files = await stub((_r, res) => json(res, 404, { message: 'File not found.' }));
    const client = offServiceClient();
    const error = await client.statements
      .download({ url: `${files.origin}/gone.csv?X-Signature=s3cr3t` })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).message).toContain('File not found.');
    // A pre-signed URL's signature stays out of messages.
    expect((error as NotFoundError).message).not.toContain('s3cr3t');
    expect((error as NotFoundError).path).toBe(`${files.origin}/gone.csv`);
  });

  it("does not blame a file host's 403 on the service's registered origins, and keeps its body", async () => {
    const denied = '<?xml version="1.0"?><Error><Code>AccessDenied</Code></Error>';
    const files = await stub((_r, res) => {
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end(denied);
    });
    const client = offServiceClient();
    const error = await client.statements
      .download({ url: `${files.origin}/expired.csv?X-Signature=s3cr3t` })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((error as PermissionDeniedError).message).not.toMatch(/registered|§5\.6/);
    expect((error as PermissionDeniedError).body).toBe(denied);
  });

  it("downloads a url the service gave relative from the service's own origin, with its credentials", async () => {
    const api = await stub((_r, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.end('a;b\r\n');
    });
    const seller = new PartnerClient({
      baseUrl: api.baseUrl,
      clientToken: 'tok-relative',
      logLevel: 'off',
    }).forUser('seller-public-token');
    const response = await seller.statements.download({ url: '/storage/exports/exp_1.csv' });
    expect(await response.text()).toBe('a;b\r\n');
    expect(api.requests[0]?.path).toBe('/storage/exports/exp_1.csv');
    expect(api.requests[0]?.headers['x-api-client-token']).toBe('tok-relative');
  });

  it('refuses an export without a url, sending nothing', async () => {
    const { mock, client } = await mockApi();
    const exported = await client.statements.export(params);
    mock.clearRequests();
    await expect(client.statements.download(exported)).rejects.toBeInstanceOf(
      RequestValidationError,
    );
    expect(mock.requests).toHaveLength(0);
  });
});
