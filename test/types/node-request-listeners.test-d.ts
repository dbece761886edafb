/**
 * `http.createServer(handler.node)` (the webhooks guide's first mount) must type-check with every
 * `@types/node` a partner on a supported Node installs, not only the one this repo develops with.
 * `@types/node` 26 declares `IncomingMessage#on` with an event-map overload before the catch-all
 * whose listener takes `any[]`; the stand-ins below copy those declarations member for member, so
 * the check runs here whichever `@types/node` the repo has.
 */

import { createWebhookHandler } from 'partner-sdk/webhooks';
import { describe, expectTypeOf, test } from 'vitest';

/** `stream.ReadableEventMap` plus `IncomingMessageEventMap`'s own, as `@types/node` 26 has them. */
interface IncomingMessageEventMap26 {
  close: [];
  // biome-ignore lint/suspicious/noExplicitAny: copied from @types/node 26, which types a chunk so
  data: [chunk: any];
  end: [];
  error: [err: Error];
  pause: [];
  readable: [];
  resume: [];
  aborted: [];
}

/** The members of `@types/node` 26's `IncomingMessage` that the handler's request type names. */
interface IncomingMessage26 {
  method?: string | undefined;
  url?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  headersDistinct: Record<string, string[] | undefined>;
  readonly readableEnded: boolean;
  readonly destroyed: boolean;
  pause(): this;
  on<E extends keyof IncomingMessageEventMap26>(
    eventName: E,
    listener: (...args: IncomingMessageEventMap26[E]) => void,
  ): this;
  // biome-ignore lint/suspicious/noExplicitAny: copied from @types/node 26's catch-all overload
  on(eventName: string | symbol, listener: (...args: any[]) => void): this;
  removeListener<E extends keyof IncomingMessageEventMap26>(
    eventName: E,
    listener: (...args: IncomingMessageEventMap26[E]) => void,
  ): this;
  // biome-ignore lint/suspicious/noExplicitAny: copied from @types/node 26's catch-all overload
  removeListener(eventName: string | symbol, listener: (...args: any[]) => void): this;
}

/** The members of `@types/node` 26's `ServerResponse` that the handler's response type names. */
interface ServerResponse26 {
  statusCode: number;
  readonly headersSent: boolean;
  setHeader(name: string, value: number | string | readonly string[]): this;
  end(chunk: string | Uint8Array, cb?: () => void): this;
}

describe('handler.node under @types/node 26', () => {
  const handler = createWebhookHandler({ on: {} });

  test('is a request listener of node:http, as createServer(handler.node) needs', () => {
    expectTypeOf(handler.node).toExtend<(req: IncomingMessage26, res: ServerResponse26) => void>();
  });

  test('takes the request and response that node:http gives a wrapping listener', () => {
    const listener = (req: IncomingMessage26, res: ServerResponse26) => handler.node(req, res);
    expectTypeOf(listener).toBeFunction();
  });
});
