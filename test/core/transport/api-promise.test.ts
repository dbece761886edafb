import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NotFoundError, PartnerClient } from '../../../src/index';

// What every method returns: a native promise with `withResponse()`, which must never leave an
// unhandled rejection of its own behind, whichever way the caller takes the result.

const product = { hash: 'prd_1', name: 'Course' };

const root = fileURLToPath(new URL('../../../', import.meta.url));
const pinnedNode = `${root}node_modules/.bin/node`;
const node = existsSync(pinnedNode) ? pinnedNode : process.execPath;

function clientAnswering(status: number, body: unknown) {
  return new PartnerClient({
    baseUrl: 'https://partner.test/api/v1',
    clientToken: 'api-promise-token',
    logLevel: 'off',
    maxRetries: 0,
    fetch: async () =>
      new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      }),
  });
}

/** Unhandled rejections reported while `run` and a few turns of the event loop after it go on. */
async function unhandledDuring(run: () => Promise<unknown>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', listener);
  try {
    await run();
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('unhandledRejection', listener);
  }
  return seen;
}

describe('APIPromise', () => {
  it('is a native promise: await, Promise.all and instanceof Promise work as usual', async () => {
    const call = clientAnswering(200, product).products.retrieve('prd_1');
    expect(call).toBeInstanceOf(Promise);
    expect(Object.getPrototypeOf(call)).toBe(Promise.prototype);
    const [first] = await Promise.all([call]);
    expect(first).toEqual(product);
    expect(await call).toBe(first);
  });

  it('gives the body and the response through withResponse()', async () => {
    const { data, response } = await clientAnswering(200, product)
      .products.retrieve('prd_1')
      .withResponse();
    expect(data).toEqual(product);
    expect(response.status).toBe(200);
  });

  it('rejects withResponse() of a failing call, leaving no unhandled rejection', async () => {
    const seen = await unhandledDuring(async () => {
      const call = clientAnswering(404, { message: 'no such product' }).products.retrieve('prd_x');
      await expect(call.withResponse()).rejects.toBeInstanceOf(NotFoundError);
    });
    expect(seen).toEqual([]);
  });

  it('rejects a failing call awaited directly, leaving no unhandled rejection', async () => {
    const seen = await unhandledDuring(async () => {
      await expect(clientAnswering(404, {}).refunds.retrieveStatus('tx_1')).rejects.toBeInstanceOf(
        NotFoundError,
      );
    });
    expect(seen).toEqual([]);
  });

  it('rejects a page list that fails, awaited or iterated, leaving no unhandled rejection', async () => {
    const seen = await unhandledDuring(async () => {
      const client = clientAnswering(500, {});
      await expect(client.products.list()).rejects.toThrow(/500/);
      const iterate = async () => {
        for await (const _ of client.products.list()) break;
      };
      await expect(iterate()).rejects.toThrow(/500/);
    });
    expect(seen).toEqual([]);
  });

  it('reports a failing call nobody handles, as a native promise would (nothing is swallowed)', () => {
    // In a child process: the test runner treats an unhandled rejection in its own as a failure.
    const script = [
      "import { PartnerClient } from './src/index.ts';",
      "process.on('unhandledRejection', (reason) => { console.log('unhandled', reason.name); });",
      'const client = new PartnerClient({',
      "  baseUrl: 'https://partner.test/api/v1', clientToken: 'api-promise-token', logLevel: 'off',",
      "  fetch: async () => new Response('{}', { status: 404 }),",
      '});',
      "client.products.retrieve('prd_x');",
    ].join('\n');
    const run = spawnSync(
      node,
      ['--import', './examples/support/register.ts', '--input-type=module', '-e', script],
      {
        cwd: root,
        encoding: 'utf8',
        timeout: 20_000,
      },
    );
    expect(run.stdout.trim()).toBe('unhandled NotFoundError');
  });
});
