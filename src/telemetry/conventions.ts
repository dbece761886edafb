/**
 * How a failure is named in telemetry (`error.type`), by the stable HTTP conventions: the status
 * code of an HTTP answer, `timeout`, the connection failure's code, or the error's class name.
 * Never a message: messages may quote a path, and paths hold hashes.
 */

/** The status of an answer carried by an error (the transport's `ErrorStatus`, the SDK's `APIError`). */
export function statusOf(error: unknown): number | undefined {
  const carried = error as { response?: { status?: unknown }; status?: unknown } | null;
  const status = carried?.response?.status ?? carried?.status;
  return typeof status === 'number' ? status : undefined;
}

/** The first string `code` (`ECONNREFUSED`…) along an error's causes. */
function codeOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A class name as it is, or `_OTHER` for anything that does not look like one. */
function className(error: unknown): string {
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' && /^[A-Za-z_$][\w$]{0,60}$/.test(name) ? name : '_OTHER';
}

/**
 * `error.type` of a failure: at the HTTP level (`attempt`) the status code, `timeout` or the
 * connection failure's code; at the call level the SDK error's class (`RateLimitError`).
 */
export function errorType(error: unknown, level: 'attempt' | 'call' = 'attempt'): string {
  const name = className(error);
  if (level === 'call' && name !== 'Error' && name !== '_OTHER') return name;
  const status = statusOf(error);
  if (status !== undefined) return String(status);
  if (name === 'TimeoutError' || name === 'BodyTimeout') return 'timeout';
  return codeOf(error) ?? name;
}
