/**
 * `err.name` is the class's name however a partner's bundler builds the SDK. A Lambda deploy step
 * or a server bundle minifies by default (esbuild's `--minify`, AWS CDK's `minify`), renaming
 * classes, and the name is what logs, `String(err)`, `JSON.stringify(err)`, the tracing guide's
 * `error.type` and a BullMQ job's `failedReason` carry, and what a handler that gets the error as
 * JSON from another process switches on.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

let dir: string;

/** The entry at `source` bundled and minified as a partner's bundler does, then imported. */
async function minified(source: string): Promise<Record<string, unknown>> {
  const outfile = join(dir, `${source.replaceAll('/', '-')}.mjs`);
  await build({
    entryPoints: [join(ROOT, source)],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    outfile,
    logLevel: 'silent',
  });
  return import(pathToFileURL(outfile).href);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'partner-sdk-minified-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

type ClientClass = new (
  options: object,
) => {
  products: { retrieve(hash: string): Promise<unknown> };
};

describe('an error of a minified bundle', () => {
  it('is named by its class in err.name, String(err) and its JSON', async () => {
    const sdk = await minified('src/index.ts');
    const PartnerClient = sdk.PartnerClient as ClientClass;
    const client = new PartnerClient({
      baseUrl: 'https://partner.test/api/v1',
      clientToken: 'minified-names-token',
      logLevel: 'off',
      fetch: async () => Response.json({ message: 'Product not found.' }, { status: 404 }),
    });
    const error = (await client.products.retrieve('prd_1').catch((e: unknown) => e)) as Error & {
      toJSON(): { name: string };
    };
    expect(error).toBeInstanceOf(sdk.NotFoundError as typeof Error);
    expect(error.name).toBe('NotFoundError');
    expect(String(error)).toBe(
      'NotFoundError: GET /products/prd_1 → 404 Not Found: Product not found.',
    );
    expect(error.toJSON().name).toBe('NotFoundError');
  });

  it("names the other entry points' classes too", async () => {
    const bulk = await minified('src/bulk/index.ts');
    const JournalMismatchError = bulk.JournalMismatchError as new (message: string) => Error;
    expect(new JournalMismatchError('not this job').name).toBe('JournalMismatchError');
    const webhooks = await minified('src/webhooks/index.ts');
    const parse = webhooks.parseWebhookEvent as (body: string) => unknown;
    let thrown: unknown;
    try {
      parse('{not json');
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Error).name).toBe('WebhookPayloadError');
  });
});
