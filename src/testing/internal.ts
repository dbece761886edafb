/**
 * The link between a mock and its faces, kept off the public object: the msw and server faces
 * need the pipeline's raw answer (a response or a drop), which the public `fetch` hides.
 *
 * @module
 */

import type { DROP, RequestSource } from './dispatch';

/** Handles a request and answers a response or a drop. */
export type RawHandler = (
  request: Request,
  source: RequestSource,
) => Promise<Response | typeof DROP>;

// A registered symbol, not module state: the CJS build gives `/testing` and `/testing/msw` a copy
// of this module each (and a suite may load one entry as ESM, the other as CJS), so the handler
// travels on the mock itself, hidden from spreads, `Object.keys` and JSON.
const RAW_HANDLER = Symbol.for('partner-sdk.mock.raw-handler');

/** Registers the raw handler of a mock. */
export function setRawHandler(mock: object, handler: RawHandler): void {
  Object.defineProperty(mock, RAW_HANDLER, { value: handler, enumerable: false });
}

/** The raw handler of a mock created by `createMockPartnerApi`. */
export function rawHandlerOf(mock: object): RawHandler {
  const handler: unknown = Reflect.get(mock, RAW_HANDLER);
  if (typeof handler !== 'function') {
    throw new TypeError('Expected a mock created by createMockPartnerApi()');
  }
  return handler as RawHandler;
}
