/**
 * Response builders shared by the mock's routes: JSON bodies, the envelope of spec §2 and
 * Laravel-style error bodies (the spec does not show error bodies; the SDK reads them as Laravel
 * writes them).
 *
 * @module
 */

/** A JSON response with the given status and extra headers. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** The common envelope of spec §2: `{ status, message, data }`. */
export function envelope(
  data: unknown,
  message: string,
  status = 200,
  headers: Record<string, string> = {},
  envelopeStatus = 'success',
): Response {
  return json({ status: envelopeStatus, message, data }, status, headers);
}

/** An error answer with a `{ message }` body. */
export function errorMessage(status: number, message: string): Response {
  return json({ message }, status);
}

/**
 * A Laravel-style 422: the first message on top, with `(and N more errors)`, and every field's
 * messages under `errors` keyed in dot form (`phones.0.number`).
 */
export function unprocessable(errors: Record<string, string[]>): Response {
  const messages = Object.values(errors).flat();
  const first = messages[0] ?? 'The given data was invalid.';
  const more = messages.length - 1;
  const message =
    more > 0 ? `${first} (and ${more} more ${more === 1 ? 'error' : 'errors'})` : first;
  return json({ message, errors }, 422);
}
