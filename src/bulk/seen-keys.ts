/**
 * The keys a bulk job has met, to report a key repeated in its input as a duplicate instead of
 * doing the item twice, in bounded memory: every key whose item is unfinished (in flight, waiting
 * to be retried) is kept exactly, and so are the keys of the last `window` finished items. Older
 * keys are forgotten; with a journal, the job's own records still catch those repeats.
 *
 * @module
 */

/** Keys met so far, within the bound described above. */
export class SeenKeys {
  readonly #unfinished = new Set<string>();
  readonly #recent = new Set<string>();
  /** The finished keys in the order they finished, as a ring: `#next` is the oldest once full. */
  readonly #order: string[] = [];
  #next = 0;
  readonly #window: number;

  constructor(window: number) {
    this.#window = window;
  }

  /** Whether `key` is an unfinished item's, or among the last finished ones. */
  has(key: string): boolean {
    return this.#unfinished.has(key) || this.#recent.has(key);
  }

  /** An item with `key` starts. */
  start(key: string): void {
    this.#unfinished.add(key);
  }

  /**
   * The item with `key` has its outcome: it joins the window, the oldest leaves it. Only a started
   * item joins: an item refused before it started (a bad one) leaves its key to a later good one,
   * and never ends the wait of an earlier occurrence still in flight.
   */
  finish(key: string): void {
    if (!this.#unfinished.delete(key)) return;
    if (this.#window === 0 || this.#recent.has(key)) return;
    this.#recent.add(key);
    if (this.#order.length < this.#window) {
      this.#order.push(key);
      return;
    }
    // A ring, not the Set's own order: removing a Set's first entries leaves holes that every
    // later walk to its first entry would cross again.
    this.#recent.delete(this.#order[this.#next]!);
    this.#order[this.#next] = key;
    this.#next = (this.#next + 1) % this.#window;
  }
}
