/**
 * An error's chain of causes, walked one way by every reader of a failure: a runtime nests what
 * went wrong (a system error's code, a proxy's refusal, a decoder's failure) a level or two below
 * the error it throws, as fetch's `fetch failed` does.
 *
 * @module
 */

/** How far down the chain a reader looks: deep enough for fetch's nesting, short of a cycle's loop. */
const MAX_DEPTH = 5;

/**
 * `error` and its causes, the nearest first, as far as `MAX_DEPTH` (a cause need not be an
 * `Error`: a runtime may give a plain object with a `code`).
 *
 * @example
 * ```ts
 * for (const cause of causeChain(error)) console.log(cause);
 * ```
 */
export function* causeChain(error: unknown): Generator<unknown> {
  for (let current = error, depth = 0; current && depth < MAX_DEPTH; depth++) {
    yield current;
    current = (current as { cause?: unknown }).cause;
  }
}
