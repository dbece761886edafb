/**
 * `partner-sdk/testing/msw`: the mock as msw request handlers, for suites already on msw.
 * The only file of the kit that imports msw (an optional peer dependency).
 *
 * @module
 */

import { HttpResponse, http, type RequestHandler } from 'msw';
import { DROP } from './dispatch';
import { rawHandlerOf } from './internal';
import type { MockPartnerApi } from './mock-api-types';

/**
 * msw handlers answering every request to the mock's host (`mock.baseUrl`'s origin: the API and
 * its export downloads) through the mock. A drop becomes `HttpResponse.error()`.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createMockPartnerApi } from 'partner-sdk/testing';
 * import { mswHandlers } from 'partner-sdk/testing/msw';
 *
 * const mock = createMockPartnerApi();
 * const server = setupServer(...mswHandlers(mock));
 * server.listen({ onUnhandledFrame: 'error' });
 * ```
 */
export function mswHandlers(mock: MockPartnerApi): RequestHandler[] {
  const handle = rawHandlerOf(mock);
  const origin = new URL(mock.baseUrl).origin;
  return [
    http.all(`${origin}/*`, async ({ request }) => {
      const answer = await handle(request, { remoteAddress: '127.0.0.1' });
      return answer === DROP ? HttpResponse.error() : answer;
    }),
  ];
}
