/**
 * Text measured and cut for display. A terminal shows a character in 0, 1 or 2 columns (a CJK
 * ideograph or an emoji takes 2, a combining accent or a zero-width joiner none), so a line cut
 * by UTF-16 units overflows the width it was cut for and wraps; and a cut inside a character (half
 * a surrogate pair, an accent without its letter) prints as garbage. Every cut here falls between
 * graphemes (what a reader sees as one character). The CLI reaches only `partner-sdk`'s public
 * entries and takes no dependency for this, so it keeps these small helpers of its own.
 *
 * @module
 */

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * A grapheme an emoji shows as 2 columns: one of emoji presentation (😀), a character made one by
 * U+FE0F (❤️, the keycap 1️⃣), or a flag (a pair of regional indicators). A joined sequence (👩‍💻)
 * is one of them.
 */
const EMOJI = /\p{Emoji_Presentation}|\p{Emoji}\ufe0f|\p{Regional_Indicator}/u;

/**
 * What takes no column of its own: combining marks (Mn, Me), format characters (Cf: the zero-width
 * joiner and space, bidirectional marks), controls, and the Hangul vowels and finals that join the
 * syllable before them. The soft hyphen, a format character, is shown as a hyphen by terminals.
 */
const ZERO = /^(?!\u00ad)[\p{Mn}\p{Me}\p{Cf}\p{Cc}\u1160-\u11ff\ud7b0-\ud7ff]$/u;

/**
 * East Asian Wide and Fullwidth (Unicode's UAX #11) outside the emoji: Hangul initials, CJK
 * radicals, punctuation, kana, ideographs and their extensions, Yi, Hangul syllables, the
 * fullwidth forms, Tangut and the kana supplements.
 */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4],
  [0x17000, 0x18cff],
  [0x1b000, 0x1b2ff],
  [0x1f200, 0x1f2ff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

/** The columns one code point takes. */
function pointColumns(point: string): number {
  if (ZERO.test(point)) return 0;
  const code = point.codePointAt(0) ?? 0;
  return WIDE.some(([from, to]) => code >= from && code <= to) ? 2 : 1;
}

/** The columns one grapheme takes: 2 for an emoji, else the sum of its code points'. */
function graphemeColumns(grapheme: string): number {
  if (EMOJI.test(grapheme)) return 2;
  let columns = 0;
  for (const point of grapheme) columns += pointColumns(point);
  return columns;
}

/**
 * The columns `text` takes on a terminal.
 *
 * @example
 * ```ts
 * columnsOf('abc'); // 3
 * columnsOf('日本'); // 4
 * columnsOf('e\u0301'); // 1
 * ```
 */
export function columnsOf(text: string): number {
  // ASCII and Latin-1 letters (most of what the CLI shows) take a column each.
  if (/^[\x20-\x7e\xa0-\u02ff]*$/.test(text)) return text.length;
  let columns = 0;
  for (const { segment } of graphemes.segment(text)) columns += graphemeColumns(segment);
  return columns;
}

/**
 * The longest start of `text` that takes at most `width` columns, cut between graphemes.
 *
 * @example
 * ```ts
 * cutColumns('日本語', 5); // '日本'
 * ```
 */
export function cutColumns(text: string, width: number): string {
  let columns = 0;
  let end = 0;
  for (const { segment, index } of graphemes.segment(text)) {
    columns += graphemeColumns(segment);
    if (columns > width) return text.slice(0, end);
    end = index + segment.length;
  }
  return text;
}

/** `text` followed by spaces up to `width` columns (as `padEnd` does for UTF-16 units). */
export function padColumns(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - columnsOf(text)));
}

/**
 * The longest start of `text` of at most `max` UTF-16 units, cut between graphemes: a bound on
 * data (a receiver's answer kept for display) rather than on columns.
 *
 * @example
 * ```ts
 * cutText('ab😀', 3); // 'ab'
 * ```
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  for (const { segment, index } of graphemes.segment(text)) {
    if (index + segment.length > max) break;
    end = index + segment.length;
  }
  return text.slice(0, end);
}
