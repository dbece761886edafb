/**
 * Run by `unloaded.test.ts` in a process of its own (module loading is per process): records every
 * module this process loads, makes calls (a retrieval, a walk, a failure), and prints which of the
 * SDK's OpenTelemetry modules were loaded. Its argument says what is registered with
 * `@opentelemetry/api`:
 *
 * - `absent`: nothing imports the API (as an app without it installed);
 * - `no-provider`: the API is loaded with a context manager, but no tracer or meter provider;
 * - `provider`: a tracer provider is registered (the control: the chunk must load then).
 */

import { registerHooks } from 'node:module';

const mode = process.argv[2];
const loaded: string[] = [];
registerHooks({
  load(url, context, nextLoad) {
    loaded.push(url);
    return nextLoad(url, context);
  },
});

// Imported only now, so that the hook sees every module of the SDK and of the API.
if (mode !== 'absent') {
  const { context, trace } = await import('@opentelemetry/api');
  const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  if (mode === 'provider') {
    const { BasicTracerProvider } = await import('@opentelemetry/sdk-trace-base');
    trace.setGlobalTracerProvider(new BasicTracerProvider());
  }
}
const { PartnerClient } = await import('partner-sdk');
const { createMockPartnerApi } = await import('partner-sdk/testing');

const mock = createMockPartnerApi();
const client = new PartnerClient({
  baseUrl: mock.baseUrl,
  fetch: mock.fetch,
  clientId: mock.credentials.clientId,
  clientSecret: mock.credentials.clientSecret,
  logLevel: 'off',
  maxRetries: 0,
});
await client.products.retrieve(mock.products.ebook.hash);
for await (const product of client.products.list()) void product;
const failed = await client.products.retrieve('prd_missing000').catch((error: unknown) => error);

const ours = (pattern: RegExp) => loaded.filter((url) => pattern.test(url));
process.stdout.write(
  `${JSON.stringify({
    called: failed instanceof Error,
    otel: ours(/\/src\/telemetry\/otel\.ts$/),
    gate: ours(/\/src\/telemetry\/gate\.ts$/),
    api: ours(/\/@opentelemetry\/api\//).length > 0,
  })}\n`,
);
