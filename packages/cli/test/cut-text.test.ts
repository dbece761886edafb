/**
 * The CLI cuts text for display between characters, wherever it cuts: the helper on its own, a
 * receiver's answer shown by `trigger`, and the protocol variable `--trace` names. Half an emoji
 * would print as garbage (and as `\ud83d` in JSON output).
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutText } from '../src/cut-text';
import { startTracing } from '../src/trace';
import { jsonLines, useCliKit } from './run-cli';

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

  it('never leaves half a character, and never more than asked', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.nat(40), (text, max) => {
        const cut = cutText(text, max);
        expect(cut.length).toBeLessThanOrEqual(max);
        expect(text.startsWith(cut)).toBe(true);
        expect(cut).not.toMatch(HALF);
      }),
    );
  });
});

describe('the CLI cutting text for display', { timeout: 60_000 }, () => {
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
