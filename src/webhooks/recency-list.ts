/**
 * A list of keys from least to most recently used, each move in constant time: a list of its own,
 * not a Map's insertion order, since walking a Map from its start steps over every entry deleted
 * since the Map last compacted, and a store at its bound deletes one with each call.
 *
 * @module
 */

/** An item of a {@link RecencyList}: its neighbours, kept by the list. */
export interface Linked<T> {
  older: T | undefined;
  newer: T | undefined;
}

/** Items from least to most recently used. */
export class RecencyList<T extends Linked<T>> {
  /** The least recently used item. */
  oldest: T | undefined;
  #newest: T | undefined;

  /** Makes `node` the most recently used (it must be in no list). */
  append(node: T): void {
    node.older = this.#newest;
    node.newer = undefined;
    if (this.#newest) this.#newest.newer = node;
    else this.oldest = node;
    this.#newest = node;
  }

  /** Takes `node`, which is in this list, out of it. */
  unlink(node: T): void {
    if (node.older) node.older.newer = node.newer;
    else this.oldest = node.newer;
    if (node.newer) node.newer.older = node.older;
    else this.#newest = node.older;
    node.older = undefined;
    node.newer = undefined;
  }

  /** Each item from the least recently used. */
  *[Symbol.iterator](): Generator<T> {
    for (let node = this.oldest; node; node = node.newer) yield node;
  }
}
