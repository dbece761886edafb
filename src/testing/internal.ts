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

const handlers = new WeakMap<object, RawHandler>();

/** Registers the raw handler of a mock. */
export function setRawHandler(mock: object, handler: RawHandler): void {
  handlers.set(mock, handler);
}

/** The raw handler of a mock created by `createMockPartnerApi`. */
export function rawHandlerOf(mock: object): RawHandler {
  const handler = handlers.get(mock);
  if (!handler) throw new TypeError('Expected a mock created by createMockPartnerApi()');
  return handler;
}
