import { describe, expect, it } from 'vitest';
import {
  type APIError,
  InternalServerError,
  NotFoundError,
  PartnerClient,
  UnprocessableEntityError,
} from '../../../src/index';
import { json, type StubServer, sequence, stubsClosedAfterEach } from '../../helpers/stub-server';

// An error answer's body is read as a success's is: JSON whenever it parses, whatever its
// `Content-Type` says, the text itself otherwise, and never more than `maxResponseBytes`.

const stub = stubsClosedAfterEach();

const clientOf = (s: StubServer, maxResponseBytes?: number) =>
  new PartnerClient({
    baseUrl: s.baseUrl,
    clientToken: 'error-bodies-client-token',
    logLevel: 'off',
    maxRetries: 0,
    ...(maxResponseBytes === undefined ? {} : { maxResponseBytes }),
  });

async function rejection(promise: PromiseLike<unknown>): Promise<APIError> {
  try {
    await promise;
  } catch (error) {
    return error as APIError;
  }
  throw new Error('expected the call to reject');
}

const laravel422 = {
  message: 'The name field is required.',
  errors: { name: ['The name field is required.'], 'phones.0.number': ['Too short.'] },
};

describe('error bodies', () => {
  it('reads a Laravel 422 sent as text/html as JSON: its message and fieldErrors', async () => {
    const server = await stub((_r, res) => {
      res.writeHead(422, { 'content-type': 'text/html; charset=UTF-8' });
      res.end(JSON.stringify(laravel422));
    });
    const error = await rejection(
      clientOf(server)
        .forUser('error-bodies-bearer')
        .offers.update('prd_1', 'off_1', { name: 'x' }),
    );
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error.message).toMatch(/→ 422 Unprocessable Entity: The name field is required\.$/);
    expect((error as UnprocessableEntityError).fieldErrors).toEqual(laravel422.errors);
    expect(error.body).toEqual(laravel422);
  });

  it('reads an error body that starts with a byte-order mark as JSON', async () => {
    const server = await stub((_r, res) => {
      res.writeHead(422, { 'content-type': 'application/json' });
      res.end(`\uFEFF${JSON.stringify(laravel422)}`);
    });
    const error = await rejection(
      clientOf(server)
        .forUser('error-bodies-bearer')
        .offers.update('prd_1', 'off_1', { name: 'x' }),
    );
    expect((error as UnprocessableEntityError).fieldErrors).toEqual(laravel422.errors);
  });

  it('keeps as text an error body labelled JSON that does not parse', async () => {
    const page = '<br />\n<b>Fatal error</b>: Allowed memory size exhausted';
    const server = await stub((_r, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(page);
    });
    const error = await rejection(clientOf(server).products.retrieve('prd_1'));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.body).toBe(page);
  });

  it('keeps at most maxResponseBytes of an error body, its start, and still reports the status', async () => {
    const server = await stub((_r, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end(`Not found.\n${'x'.repeat(2_000_000)}`);
    });
    const error = await rejection(clientOf(server, 1000).products.retrieve('prd_1'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toMatch(/→ 404 Not Found: Not found\.$/);
    expect(typeof error.body).toBe('string');
    expect((error.body as string).startsWith('Not found.\nxxx')).toBe(true);
    expect((error.body as string).length).toBeLessThanOrEqual(1000);
  });

  it('retries a 503 with a huge body, as any 503', async () => {
    const server = await stub(
      sequence(
        (_r, res) => {
          res.writeHead(503, { 'content-type': 'text/html' });
          res.end(`<html>${'busy '.repeat(1_000_000)}</html>`);
        },
        (_r, res) => json(res, 200, { hash: 'prd_1', name: 'Curso' }),
      ),
    );
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'error-bodies-client-token',
      logLevel: 'off',
      maxResponseBytes: 1000,
    });
    await expect(client.products.retrieve('prd_1')).resolves.toMatchObject({ hash: 'prd_1' });
    expect(server.requests).toHaveLength(2);
  });
});
