/**
 * The `Response` a raw call (a file download) hands back when the caller gave a signal: the same
 * status, headers and URL, with a body that fails with the signal's reason as soon as it aborts.
 *
 * fetch ties the caller's signal to the body only through a link that garbage collection may drop
 * once the headers are in (the transport's own body read watches the signal for the same reason);
 * after that, an abort would leave a partner's stalled download waiting forever. A pipe given the
 * signal is held by it, and on abort cancels the source and fails what the caller reads.
 */
export function abortableResponse(response: Response, signal: AbortSignal): Response {
  if (!response.body) return response;
  const wrapped = new Response(response.body.pipeThrough(new TransformStream(), { signal }), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // A constructed Response has no URL of its own; the download's is where the file came from.
  Object.defineProperty(wrapped, 'url', { value: response.url, enumerable: true });
  return wrapped;
}
