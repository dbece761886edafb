/**
 * The CLI's line reader on its own: whatever the chunk boundaries (inside a character included),
 * UTF-8 text comes back line by line as written, with `\r\n` read as `\n`; a line past the bound is
 * refused however its characters are encoded; bytes that are not UTF-8 are refused by line.
 */

import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/context';
import { linesOf, MAX_LINE } from '../src/input';

/** `bytes` as stdin would hand them over, cut at `cuts` (offsets, in any order). */
function chunked(bytes: Buffer, cuts: number[]): Readable {
  const at = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const to of [...at, bytes.length]) {
    if (to > from) chunks.push(bytes.subarray(from, to));
    from = to;
  }
  return Readable.from(chunks);
}

async function read(stream: Readable): Promise<string[]> {
  const lines: string[] = [];
  for await (const { text } of linesOf('-', stream)) lines.push(text);
  return lines;
}

describe('linesOf', () => {
  it('gives back every line as written, whatever the chunks, in any script', async () => {
    const line = fc
      .string({ unit: 'grapheme', maxLength: 40 })
      .map((text) => text.replace(/[\r\n]/g, ''));
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 12 }),
        fc.constantFrom('\n', '\r\n'),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (lines, end, cuts) => {
          const bytes = Buffer.from(lines.map((text) => text + end).join(''));
          expect(await read(chunked(bytes, cuts))).toEqual(
            lines.map((text) => text.replace(/^\uFEFF/, '')),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('takes a line of the most characters in three-byte characters, refuses one more, and an endless line of four-byte ones', async () => {
    const most = '€'.repeat(MAX_LINE);
    expect(await read(chunked(Buffer.from(`${most}\r\n`), [1, 1000, 70_001]))).toEqual([most]);
    await expect(read(chunked(Buffer.from(`ok\n${most}€€\n`), [5]))).rejects.toThrow(
      new UsageError(`stdin:2: line longer than ${MAX_LINE} characters (the limit)`),
    );
    // Never held whole: refused once what is buffered could not be a line within the bound.
    const endless = Readable.from(
      (function* () {
        for (;;) yield Buffer.from('😀'.repeat(4096));
      })(),
    );
    await expect(read(endless)).rejects.toThrow(/stdin:1: line longer than/);
  });

  it('refuses bytes that are not UTF-8, naming their line, cut anywhere', async () => {
    const bytes = Buffer.concat([
      Buffer.from('trx_a1\r\nPromo'),
      Buffer.from([0xe7, 0xe3]),
      Buffer.from('o\nlast'),
    ]);
    for (const cut of [0, 7, 13, 14, 15]) {
      await expect(read(chunked(bytes, [cut]))).rejects.toThrow(
        new UsageError('stdin:2: not UTF-8 text (save the file as UTF-8)'),
      );
    }
  });
});
