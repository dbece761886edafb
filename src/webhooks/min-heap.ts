/**
 * A binary min-heap whose items know their place in it: the smallest by `rank` comes out first,
 * and any item can be taken out, each in logarithmic time. `MemoryDedupeStore` keeps its claims
 * by when their leases end in one, so that making room never walks every key it holds.
 *
 * @module
 */

/** An item of a {@link MinHeap}: its place there, kept by the heap (-1 while in none). */
export interface HeapItem {
  heapIndex: number;
}

/** Items by `rank`, the smallest first; an item is in one heap at most, its rank fixed while there. */
export class MinHeap<T extends HeapItem> {
  readonly #items: T[] = [];
  readonly #rank: (item: T) => number;

  constructor(rank: (item: T) => number) {
    this.#rank = rank;
  }

  /** The smallest item, left in. */
  peek(): T | undefined {
    return this.#items[0];
  }

  /** Adds `item`, which is in no heap. */
  push(item: T): void {
    this.#items.push(item);
    this.#up(item, this.#items.length - 1);
  }

  /** Takes the smallest item out. */
  pop(): T | undefined {
    const top = this.#items[0];
    if (top) this.remove(top);
    return top;
  }

  /** Takes `item`, which is in this heap, out of it. */
  remove(item: T): void {
    const items = this.#items;
    const at = item.heapIndex;
    const last = items.pop()!;
    item.heapIndex = -1;
    if (last === item) return;
    items[at] = last;
    last.heapIndex = at;
    this.#up(last, at);
    this.#down(last, last.heapIndex);
  }

  #put(item: T, at: number): void {
    this.#items[at] = item;
    item.heapIndex = at;
  }

  #up(item: T, from: number): void {
    let at = from;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      const above = this.#items[parent]!;
      if (this.#rank(above) <= this.#rank(item)) break;
      this.#put(above, at);
      at = parent;
    }
    this.#put(item, at);
  }

  #down(item: T, from: number): void {
    const items = this.#items;
    let at = from;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= items.length) break;
      const right = child + 1;
      if (right < items.length && this.#rank(items[right]!) < this.#rank(items[child]!)) {
        child = right;
      }
      if (this.#rank(items[child]!) >= this.#rank(item)) break;
      this.#put(items[child]!, at);
      at = child;
    }
    this.#put(item, at);
  }
}
