/**
 * Warnings a receiver gives once per logger rather than once per receiver: a process that creates
 * many receivers (tests, one per route) hears each warning once, and a fresh logger hears it too.
 *
 * @module
 */

const warned = new WeakMap<object, Set<string>>();

/**
 * Runs `warn` unless a warning with this `topic` was already given through `sink`.
 *
 * @example
 * ```ts
 * warnOnce(console, 'no-verify', () => log.warn('webhook receiver created without verify'));
 * ```
 */
export function warnOnce(sink: object, topic: string, warn: () => void): void {
  let topics = warned.get(sink);
  if (!topics) {
    topics = new Set();
    warned.set(sink, topics);
  }
  if (topics.has(topic)) return;
  topics.add(topic);
  warn();
}
