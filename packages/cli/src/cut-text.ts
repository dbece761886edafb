/**
 * Text cut for display between characters: a cut inside a surrogate pair (an emoji, a CJK
 * extension character) would leave half of it, which prints as garbage. The CLI reaches only
 * `partner-sdk`'s public entries, so it keeps this small helper of its own.
 *
 * @module
 */

/**
 * The first `max` UTF-16 units of `text`, one fewer where the last would be the first half of a
 * pair.
 *
 * @example
 * ```ts
 * cutText('ab😀', 3); // 'ab'
 * ```
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = Math.max(0, max);
  const last = text.charCodeAt(end - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? end - 1 : end);
}
