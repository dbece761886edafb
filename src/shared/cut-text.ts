/**
 * Text cut to a bound for a message or a key, between characters: a cut inside a surrogate pair
 * (an emoji, a CJK extension character) would leave half of it, which prints as garbage and has
 * no UTF-8 form.
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
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/**
 * `text` as a message shows it: whole up to `max` UTF-16 units, else cut between characters
 * and marked with `…`.
 *
 * @example
 * ```ts
 * shortened('Não encontrado 😀', 16); // 'Não encontrado …'
 * ```
 */
export function shortened(text: string, max: number): string {
  return text.length > max ? `${cutText(text, max)}…` : text;
}
