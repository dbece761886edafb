// `partner-sdk/testing/msw` in a partner's test setup: the kit's handlers as msw's own
// `RequestHandler`s, for `setupServer` (Node) or `setupWorker` (a browser). Apart from entry.ts
// because msw's declarations ask more than the SDK's: the TypeScript msw's `peerDependencies` name
// (≥ 5.9) and the DOM lib; test-runtimes.mjs checks this file where both hold.
import type { RequestHandler } from 'msw';
import { createMockPartnerApi, type MockPartnerApi } from 'partner-sdk/testing';
import { mswHandlers } from 'partner-sdk/testing/msw';

export function mockedService(): { mock: MockPartnerApi; handlers: RequestHandler[] } {
  const mock = createMockPartnerApi();
  return { mock, handlers: mswHandlers(mock) };
}
