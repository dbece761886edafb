/**
 * The CLI measures and cuts text for display in a terminal's columns, between characters,
 * wherever it does: the helpers on their own, a table of CJK names, a receiver's answer shown by
 * `trigger`, and the protocol variable `--trace` names. Half an emoji would print as garbage (and
 * as `\ud83d` in JSON output); a line measured in UTF-16 units overflows the terminal and wraps.
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, type StubServer, startStub } from '../../../test/helpers/stub-server';
import { columnsOf, cutColumns, cutText, padColumns } from '../src/cut-text';
import { startTracing } from '../src/trace';
import { cli, jsonLines, useCliKit } from './run-cli';

const { run } = useCliKit('cut-text');

/** Half a character: a surrogate without its other half, or what UTF-8 turns it into. */
const HALF = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\ufffd/;

describe('cutText', () => {
  it('cuts before a pair it would split, and leaves shorter text whole', () => {
    expect(cutText('ab😀', 3)).toBe('ab');
    expect(cutText('ab😀', 4)).toBe('ab😀');
    expect(cutText('abc', 2)).toBe('ab');
    expect(cutText('abc', 5)).toBe('abc');
    expect(cutText('😀', 0)).toBe('');
  });

  it('never leaves half a character or an accent without its letter, and never more than asked', () => {
    expect(cutText('cafe\u0301', 4)).toBe('caf');
    fc.assert(
      fc.property(displayText, fc.nat(40), (text, max) => {
        const cut = cutText(text, max);
        expect(cut.length).toBeLessThanOrEqual(max);
        expect(text.startsWith(cut)).toBe(true);
        expect(boundaries(text).has(cut.length)).toBe(true);
        expect(cut).not.toMatch(HALF);
      }),
    );
  });
});

/** Pieces that each measure differently: wide, zero-width, joined, flagged, combined. */
const PIECES = [
  'a',
  'Z',
  ' ',
  'é',
  'e\u0301',
  'a\u0301\u0302',
  '日',
  '本',
  '한',
  '\u1112\u1161\u11ab',
  'Ａ',
  '。',
  '😀',
  '❤',
  '❤\ufe0f',
  '1\ufe0f\u20e3',
  '👩\u200d💻',
  '👍🏽',
  '🇧🇷',
  '\u200b',
  '\u200d',
  '\u0301',
  '𠀀',
  '·',
];
// Without U+FFFD of its own: it is what a broken character becomes once encoded, which `HALF`
// looks for, so a text holding one would read as cut badly whatever the cut.
const displayText = fc
  .oneof(
    fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }).map((parts) => parts.join('')),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    fc.string({ unit: 'grapheme-composite', maxLength: 30 }),
  )
  .filter((text) => !text.includes('\ufffd'));
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/** Where `text`'s graphemes end: the places a cut may fall. */
const boundaries = (text: string) =>
  new Set([0, ...[...segmenter.segment(text)].map((s) => s.index + s.segment.length)]);

describe('columnsOf and cutColumns', () => {
  it("count a terminal's columns: wide CJK and emoji 2, combining marks and joiners 0", () => {
    expect(columnsOf('abc')).toBe(3);
    expect(columnsOf('Matemática')).toBe(10);
    expect(columnsOf('日本語')).toBe(6);
    expect(columnsOf('한국어')).toBe(6);
    expect(columnsOf('\u1112\u1161\u11ab')).toBe(2);
    expect(columnsOf('ＡＢ')).toBe(4);
    expect(columnsOf('e\u0301')).toBe(1);
    expect(columnsOf('😀')).toBe(2);
    expect(columnsOf('👩\u200d💻')).toBe(2);
    expect(columnsOf('👍🏽')).toBe(2);
    expect(columnsOf('🇧🇷')).toBe(2);
    expect(columnsOf('❤')).toBe(1);
    expect(columnsOf('❤\ufe0f')).toBe(2);
    expect(columnsOf('1\ufe0f\u20e3')).toBe(2);
    expect(columnsOf('1\u20e3')).toBe(1);
    expect(columnsOf('a\u200bb')).toBe(2);
    expect(cutColumns('日本語', 5)).toBe('日本');
    expect(cutColumns('ab😀c', 3)).toBe('ab');
    expect(cutColumns('cafe\u0301s', 4)).toBe('cafe\u0301');
    expect(padColumns('日本', 6)).toBe('日本  ');
  });

  it('cut never wider than asked, never inside a grapheme, and no shorter than it must', () => {
    fc.assert(
      fc.property(displayText, fc.nat(40), (text, width) => {
        const cut = cutColumns(text, width);
        expect(text.startsWith(cut)).toBe(true);
        expect(columnsOf(cut)).toBeLessThanOrEqual(width);
        expect(boundaries(text).has(cut.length)).toBe(true);
        expect(cut).not.toMatch(HALF);
        expect(text.slice(cut.length)).not.toMatch(
          /^(?:\p{M}|\u200d|\ufe0f|[\u{1f3fb}-\u{1f3ff}])/u,
        );
        if (cut.length < text.length) {
          const next = [...segmenter.segment(text.slice(cut.length))][0]!.segment;
          expect(columnsOf(cut + next)).toBeGreaterThan(width);
        }
      }),
    );
  });

  it('a text measures as the sum of its graphemes, whatever it is cut into', () => {
    fc.assert(
      fc.property(displayText, displayText, (a, b) => {
        const joined = a + b;
        if (!boundaries(joined).has(a.length)) return;
        expect(columnsOf(joined)).toBe(columnsOf(a) + columnsOf(b));
      }),
    );
  });
});

/** Products whose names take 2 columns a character, or 0 for some, beside a plain one. */
const NAMES = ['Matemática Financeira', '日本語の講座', '한국어 강좌', 'Cafe\u0301 👩\u200d💻 🇧🇷'];

let stub: StubServer;
beforeAll(async () => {
  stub = await startStub((_, res) =>
    json(res, 200, {
      data: NAMES.map((name, i) => ({
        hash: `prd_${i}`,
        name,
        type: 'course',
        status: 'approved',
      })),
      current_page: 1,
      last_page: 1,
      per_page: 10,
      total: NAMES.length,
    }),
  );
});
afterAll(() => stub?.close());

describe('the CLI cutting text for display', { timeout: 60_000 }, () => {
  it('aligns a table of CJK and emoji names by the columns a terminal shows', async () => {
    const result = await cli(['--format', 'table', 'products', 'list'], {
      env: {
        PARTNER_API_BASE_URL: stub.baseUrl,
        PARTNER_API_CLIENT_TOKEN: 'ct_columns',
        PARTNER_API_SELLER_TOKEN: undefined,
        PARTNER_SDK_PROFILE: undefined,
        XDG_CONFIG_HOME: '/nonexistent-partner-cli-config',
      },
    });
    expect(result.code, result.stderr).toBe(0);
    const rows = result.stdout.split('\n').filter((line) => /^(HASH|prd_)/.test(line));
    expect(rows).toHaveLength(NAMES.length + 1);
    // Where the TYPE column starts, in columns: the same on every row.
    const typeAt = rows.map((row) => columnsOf(row.slice(0, row.search(/(TYPE|course)/))));
    expect(new Set(typeAt).size).toBe(1);
  });

  it('cuts the protocol variable --trace names at 40 columns, CJK included', async () => {
    let written = '';
    const stderr = new Writable({
      decodeStrings: false,
      write(chunk, _, done) {
        written += String(chunk);
        done();
      },
    });
    const stop = await startTracing({
      stdout: process.stdout,
      stderr,
      stdin: process.stdin,
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
        OTEL_EXPORTER_OTLP_PROTOCOL: '協議'.repeat(30),
      },
    });
    await stop();
    const shown = /is ("[^;]*);/.exec(written)?.[1] ?? '';
    expect(shown.startsWith('"協議')).toBe(true);
    expect(columnsOf(shown)).toBeLessThanOrEqual(40);
    expect(columnsOf(shown)).toBeGreaterThanOrEqual(39);
  });

  it("shows a receiver's long answer to trigger without half an emoji", async () => {
    const answer = `${'a'.repeat(1999)}😀 and more`;
    const receiver: Server = createServer((req, res) => {
      req.resume().on('end', () => res.writeHead(200).end(answer));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const to = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
    try {
      const result = await run(['--json', 'trigger', 'subscription_ended', '--to', to]);
      expect(result.code).toBe(0);
      const [shown] = jsonLines(result.stdout) as { body: string }[];
      expect(shown!.body).toBe('a'.repeat(1999));
      expect(result.stdout).not.toContain('\\ud83d');
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('names a protocol variable holding an emoji at the cut without half of it', async () => {
    let written = '';
    const stderr = new Writable({
      decodeStrings: false,
      write(chunk, _, done) {
        written += String(chunk);
        done();
      },
    });
    const stop = await startTracing({
      stdout: process.stdout,
      stderr,
      stdin: process.stdin,
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
        OTEL_EXPORTER_OTLP_PROTOCOL: `${'g'.repeat(38)}😀`,
      },
    });
    await stop();
    expect(written).toContain('OTEL_EXPORTER_OTLP_PROTOCOL is "gggg');
    expect(written).not.toMatch(HALF);
  });
});
