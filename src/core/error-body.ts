/**
 * What an error body says, read the way Laravel writes it (the spec shows no error bodies; DESIGN
 * §6 assumes Laravel): its human message, and its messages per field.
 */

/** The human message of an error body: `message` of a JSON body, or the first line of a text one. */
export function bodyMessage(body: unknown): string | undefined {
  if (typeof body === 'string') {
    const text = body.trim();
    if (!text) return undefined;
    if (text.startsWith('<')) return 'the service answered with an HTML page';
    const line = text.split('\n', 1)[0] ?? '';
    return line.length > 300 ? `${line.slice(0, 300)}…` : line;
  }
  if (body && typeof body === 'object') {
    const message = ownField(body, 'message');
    if (typeof message === 'string' && message) return message;
    const error = ownField(body, 'error');
    if (typeof error === 'string' && error) return error;
  }
  return undefined;
}

/** A body's own field, never one inherited through its prototype. */
function ownField(body: object, name: string): unknown {
  return Object.hasOwn(body, name) ? (body as Record<string, unknown>)[name] : undefined;
}

/** The messages per field of a Laravel-style `{ message, errors }` body. */
export function readFieldErrors(body: unknown): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  if (!body || typeof body !== 'object') return result;
  const errors = ownField(body, 'errors');
  if (!errors || typeof errors !== 'object' || Array.isArray(errors)) return result;
  for (const [field, messages] of Object.entries(errors)) {
    const list = Array.isArray(messages)
      ? messages.map(String)
      : typeof messages === 'string'
        ? [messages]
        : undefined;
    // Defined, not assigned: a field named `__proto__` stays a field.
    if (list) {
      Object.defineProperty(result, field, {
        value: list,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return result;
}

/**
 * Laravel 8 answers every 422 with the same `The given data was invalid.` and the real messages
 * under `errors`; later versions put the first one on top themselves (`… (and 2 more errors)`).
 * For the former, the first field's message and how many follow, so `err.message` says what is
 * wrong; `undefined` (the body's own message) otherwise.
 */
export function firstFieldError(body: unknown): string | undefined {
  if (bodyMessage(body) !== 'The given data was invalid.') return undefined;
  const fieldErrors = Object.entries(readFieldErrors(body)).filter(
    ([, messages]) => messages.length,
  );
  const [field, messages] = fieldErrors[0] ?? [];
  if (field === undefined || messages === undefined) return undefined;
  const more = fieldErrors.reduce((count, [, each]) => count + each.length, 0) - 1;
  return `${field}: ${messages[0]}${more > 0 ? ` (and ${more} more error${more === 1 ? '' : 's'})` : ''}`;
}
