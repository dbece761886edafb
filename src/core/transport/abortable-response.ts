/**
 * The `Response` a raw call (a file download) hands back: as it came, or, when the caller gave the
 * call a signal or a `maxResponseBytes` of its own, the same status, headers and URL with a body
 * that fails with the signal's reason as soon as it aborts, or with `ResponseTooLargeError` once it
 * passes that bound.
 *
 * fetch ties the caller's signal to the body only through a link that garbage collection may drop
 * once the headers are in (the transport's own body read watches the signal for the same reason);
 * after that, an abort would leave a partner's stalled download waiting forever. A pipe given the
 * signal is held by it, and on abort cancels the source and fails what the caller reads.
 *
 * The client's `maxResponseBytes` is a default for the bodies the SDK reads itself; a download is
 * the caller's to stream, whatever its size, unless the call itself names a bound (a caller that
 * reads the file into memory, from a host that might never stop sending).
 */

import { type RequestIdentity, ResponseTooLargeError } from '../errors';

/** What a download's body is held to: the call's own signal and `maxResponseBytes`, when given. */
export interface DownloadBounds {
  signal?: AbortSignal | undefined;
  maxResponseBytes?: number | undefined;
}

export function abortableResponse(
  response: Response,
  { signal, maxResponseBytes }: DownloadBounds = {},
  identity: RequestIdentity,
): Response {
  if (!response.body || (!signal && maxResponseBytes === undefined)) return response;
  const body =
    maxResponseBytes === undefined
      ? response.body
      : response.body.pipeThrough(byteBound(maxResponseBytes, identity));
  const wrapped = new Response(body.pipeThrough(new TransformStream(), { signal }), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // A constructed Response has no URL of its own; the download's is where the file came from.
  Object.defineProperty(wrapped, 'url', { value: response.url, enumerable: true });
  return wrapped;
}

/** Passes chunks on until `maxBytes` have passed; past it, fails the body (the source is cancelled). */
function byteBound(
  maxBytes: number,
  identity: RequestIdentity,
): TransformStream<Uint8Array, Uint8Array> {
  let passed = 0;
  return new TransformStream({
    transform(chunk, controller) {
      passed += chunk.byteLength;
      if (passed > maxBytes) controller.error(new ResponseTooLargeError(identity, maxBytes));
      else controller.enqueue(chunk);
    },
  });
}
