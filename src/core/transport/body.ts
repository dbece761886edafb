/**
 * Reading a response body within bounds: the attempt's time (ky's time-outs stop at the headers,
 * so a body that stalls is cancelled here, which also closes its connection), the caller's signal,
 * and `maxResponseBytes`, counted on the decoded stream while reading, so a huge or inflating body
 * is cancelled before it fills memory; and, where a body read to its end does not parse, whether
 * it came whole, which fetch does not say of a compressed stream that stopped part way.
 */

import { causeChain } from '../../shared/cause-chain';

// Two signals of the read, never shown as they are: `error-mapping.ts` turns each into the SDK's error.

/** The attempt's time ran out while the body was being read (retried like any attempt time-out). */
export class BodyTimeout extends Error {
  // Named, as ky names its own time-out: telemetry reads a failure's type from its name.
  override name = 'BodyTimeout';
}

/**
 * The connection broke while the body was being read: a connection failure like one before the
 * headers (retried where the call may be, and the service may have acted on it), except that the
 * service did answer, with the status `answered`: what could be read of its body is kept.
 */
export class BodyBroken extends Error {
  /**
   * The answer's status (not named `status`: telemetry reads a failure's `status` as an HTTP
   * error's, where this failure's type is its connection's code).
   */
  readonly answered: number;
  /** How many bytes were decoded before the failure. */
  readonly decoded: number;
  /** The text they hold. */
  readonly text: string;

  constructor(response: Response, decoded: number, text: string, cause: unknown) {
    super('the connection broke while the body was read', { cause });
    this.answered = response.status;
    this.decoded = decoded;
    this.text = text;
  }
}

/**
 * The body did not decode as its `Content-Encoding` says (corrupt, or not encoded at all): an
 * answer spoilt on its way, handled as one broken off, with what could be read of it.
 */
export class BodyUndecodable extends BodyBroken {
  /** Its `Content-Encoding`, as sent. */
  readonly encoding: string;

  constructor(response: Response, decoded: number, text: string, cause: unknown) {
    super(response, decoded, text, cause);
    this.message = 'the body could not be decoded';
    this.encoding = response.headers.get('content-encoding') ?? '';
  }
}

/**
 * A compressed body whose stream stopped part way while its connection ended cleanly: fetch
 * decodes leniently (as browsers and curl do) and hands back the start with no error, a JSON
 * document that never closes. Handled as a body broken off.
 */
export class BodyCompressedCut extends BodyBroken {
  /** Its `Content-Encoding`, as sent. */
  readonly encoding: string;

  constructor(response: Response, decoded: number, text: string) {
    const encoding = response.headers.get('content-encoding') ?? '';
    const reason = `the JSON it carries ends part way (the ${encoding} stream stopped before its end)`;
    super(response, decoded, text, new Error(reason));
    this.encoding = encoding;
  }
}

/** The codes of the runtime's decoders' failures: zlib's (gzip, deflate), brotli's and zstd's. */
const DECODER_FAILURE = /^(Z_|ERR__ERROR_|ZSTD_error_)/;

/** Whether a failed read failed in a decoder of the body's `Content-Encoding`. */
function decoderFailed(error: unknown): boolean {
  for (const cause of causeChain(error)) {
    const { code } = cause as { code?: unknown };
    if (typeof code === 'string' && DECODER_FAILURE.test(code)) return true;
  }
  return false;
}

/** The decoded body grew past `maxResponseBytes` (not retried: a repeat would be as large). */
export class BodyTooLarge extends Error {
  // Named as the SDK error it becomes: telemetry's `error.type` of the attempt shows this name.
  override name = 'ResponseTooLargeError';
  readonly limit: number;

  constructor(limit: number) {
    super();
    this.limit = limit;
  }
}

let decoder: InstanceType<typeof TextDecoder> | undefined;

/**
 * A body's text, decoded as its chunks arrive. A body of one chunk (most answers) is decoded once
 * at the end by a decoder every call shares (a whole-input decode keeps no state); from a second
 * chunk on, each chunk is decoded as it comes, by a streaming decoder of this body's own, so a
 * large body's decoding is spread between reads instead of blocking the event loop at the end.
 */
class TextAssembler {
  #first: Uint8Array | undefined;
  #stream: InstanceType<typeof TextDecoder> | undefined;
  readonly #parts: string[] = [];

  add(chunk: Uint8Array): void {
    if (this.#first === undefined && this.#stream === undefined) {
      this.#first = chunk;
      return;
    }
    if (this.#stream === undefined) {
      this.#stream = new TextDecoder();
      this.#parts.push(this.#stream.decode(this.#first, { stream: true }));
      this.#first = undefined;
    }
    this.#parts.push(this.#stream.decode(chunk, { stream: true }));
  }

  end(): string {
    if (this.#stream !== undefined) {
      this.#parts.push(this.#stream.decode());
      return this.#parts.join('');
    }
    if (this.#first === undefined) return '';
    decoder ??= new TextDecoder();
    return decoder.decode(this.#first);
  }
}

/**
 * The body as text, read within `timeMs` milliseconds and `maxBytes` bytes; the
 * caller's signal is watched here too: fetch ties it to the body only through a combined signal
 * that garbage collection may drop once the headers are in, after which an abort would never reach
 * a stalled body. With `overflow` `'truncate'` (an error answer's body, kept for the partner to
 * read) a longer body is cut at `maxBytes` and the rest cancelled, instead of failing the read.
 */
export async function readBody(
  response: Response,
  timeMs: number,
  maxBytes: number,
  signal: AbortSignal | undefined,
  overflow: 'fail' | 'truncate' = 'fail',
): Promise<string> {
  const stream = response.body;
  if (!stream) return '';
  const reader = stream.getReader();
  let timedOut = false;
  const stop = (reason: unknown) => reader.cancel(reason).catch(() => {});
  const timer = setTimeout(
    () => {
      timedOut = true;
      stop(new BodyTimeout());
    },
    Math.max(1, timeMs),
  );
  const onAbort = () => stop(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const text = new TextAssembler();
  let size = 0;
  try {
    if (signal?.aborted) throw signal.reason;
    for (;;) {
      const { done, value } = await reader.read();
      // A read cut short by the timer or the caller ends as `done`: the catch below tells which.
      if (timedOut || signal?.aborted) throw signal?.reason;
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        if (overflow === 'fail') throw new BodyTooLarge(maxBytes);
        text.add(value.subarray(0, value.byteLength - (size - maxBytes)));
        stop(undefined);
        return text.end();
      }
      text.add(value);
    }
    return text.end();
  } catch (error) {
    // What is left unread is cancelled; a read that failed because the time ran out reports the
    // time-out, not the cancel's echo; any other failure of the read is the connection's.
    stop(error);
    if (timedOut) throw new BodyTimeout();
    if (error instanceof BodyTooLarge || error instanceof BodyBroken || signal?.aborted)
      throw error;
    if (decoderFailed(error)) throw new BodyUndecodable(response, size, text.end(), error);
    throw new BodyBroken(response, size, text.end(), error);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * A whole answer's body parsed (as {@link parseBody}), unless it is a compressed one cut short:
 * fetch hands back the start of a stream that stopped part way with no error. Only a body that
 * did not parse is looked at again, so a whole document costs nothing more than its parse.
 */
export function parseWholeBody(response: Response, text: string): unknown {
  const body = parseBody(text);
  if (typeof body === 'string' && response.headers.has('content-encoding') && unclosedJson(text)) {
    throw new BodyCompressedCut(response, new TextEncoder().encode(text).byteLength, text);
  }
  return body;
}

/** Whether `text` starts a JSON object or array that never closes: a document cut short. */
function unclosedJson(text: string): boolean {
  const start = text.search(/\S/);
  if (text[start] !== '{' && text[start] !== '[') return false;
  return !closes(text, start);
}

/** Whether the object or array opening at `start` closes, strings and their escapes skipped. */
function closes(text: string, start: number): boolean {
  let depth = 0;
  let quoted = false;
  for (let index = start; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (quoted) {
      if (code === 0x5c) index++;
      else if (code === 0x22) quoted = false;
    } else if (code === 0x22) quoted = true;
    else if (code === 0x7b || code === 0x5b) depth++;
    else if ((code === 0x7d || code === 0x5d) && --depth === 0) return true;
  }
  return false;
}

/** JSON when it parses, the text itself otherwise (HTML error pages, plain text), `undefined` when empty. */
export function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
