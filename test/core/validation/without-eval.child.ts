/**
 * Run by without-eval.test.ts in a process started with `--disallow-code-generation-from-strings`,
 * as a strict Content-Security-Policy runs it: the SDK's response validation must still answer,
 * on zod's interpreted parser. Prints one JSON line with what it saw.
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PartnerClient, ResponseValidationError } from 'partner-sdk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { compiled, loadCompiler } from '../../../src/core/validation';
import { ProductSchema } from '../../../src/schemas/product';

let evalRefused = false;
try {
  new Function('return 1');
} catch {
  evalRefused = true;
}

const mock = createMockPartnerApi();
const server = await mock.listen();
const client = new PartnerClient({
  baseUrl: server.url,
  clientToken: mock.credentials.clientToken,
  logLevel: 'off',
});
const page = await client.products.list({ per_page: 5 });
const product = await client.products.retrieve(page.data[0]!.hash);
await server.close();

// A product whose category is text: strict validation must refuse it, as zod's parser does.
const broken = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ ...product, category_id: 'ten' }));
});
await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
const { port } = broken.address() as AddressInfo;
const brokenClient = new PartnerClient({
  baseUrl: `http://127.0.0.1:${port}/api/v1`,
  clientToken: 'any-client-token',
  logLevel: 'off',
  maxRetries: 0,
});
const refusal = await brokenClient.products.retrieve(product.hash).catch((error: unknown) => error);
broken.close();

// The compiler has loaded (a client starts it when made): what `compiled` gives is its verdict.
await loadCompiler();
console.log(
  JSON.stringify({
    evalRefused,
    fellBack: compiled(ProductSchema) === ProductSchema,
    listed: page.data.length,
    retrieved: product.hash === page.data[0]!.hash,
    refused: refusal instanceof ResponseValidationError ? refusal.issues : String(refusal),
  }),
);
