/**
 * Reading a command's input: hashes from arguments, a file or stdin (one per line, or CSV), and
 * JSON parameters from an argument, `@file` or stdin.
 *
 * @module
 */

import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { UsageError } from './context';

/** Splits one CSV line (RFC 4180 quotes; no line breaks inside a field). */
export function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else field += char;
  }
  fields.push(field);
  return fields.map((f) => f.trim());
}

/** The lines of a file (`-`: stdin), read lazily. */
export async function* linesOf(file: string, stdin: NodeJS.ReadableStream): AsyncGenerator<string> {
  let stream: NodeJS.ReadableStream = stdin;
  if (file !== '-') {
    const fileStream = createReadStream(file);
    await new Promise<void>((resolve, reject) => {
      fileStream.once('open', () => resolve());
      fileStream.once('error', (error: Error) =>
        reject(new UsageError(`cannot read ${file}: ${error.message}`)),
      );
    });
    stream = fileStream;
  }
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) yield line;
}

const HEADER_NAMES = new Set(['hash', 'transaction_hash', 'transaction', 'transactionhash', 'id']);

/**
 * Hashes from the arguments, else from `--file` (or stdin when it is piped): one per line, or
 * the first column of a CSV (a header row naming it is skipped). Blank lines and `#` comments are
 * skipped. Read lazily, so a file of a million hashes never sits in memory.
 */
export async function* hashesFrom(
  args: string[],
  file: string | undefined,
  stdin: NodeJS.ReadableStream & { isTTY?: boolean },
): AsyncGenerator<string> {
  if (args.length > 0 && file !== undefined) {
    throw new UsageError('give hashes as arguments or with --file, not both');
  }
  if (args.length > 0) {
    yield* args;
    return;
  }
  if (file === undefined && stdin.isTTY) {
    throw new UsageError('no hashes: give them as arguments, with --file FILE, or on stdin');
  }
  let first = true;
  for await (const raw of linesOf(file ?? '-', stdin)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const value = line.includes(',') || line.startsWith('"') ? csvFields(line)[0]! : line;
    if (first && HEADER_NAMES.has(value.toLowerCase())) {
      first = false;
      continue;
    }
    first = false;
    yield value;
  }
}

/** A JSON object from `--data`: inline JSON, `@file`, or `@-` for stdin. */
export async function jsonArgument(
  value: string,
  stdin: NodeJS.ReadableStream,
  what: string,
): Promise<Record<string, unknown>> {
  let text = value;
  if (value.startsWith('@')) {
    const file = value.slice(1);
    try {
      text = file === '-' ? await readAll(stdin) : await readFile(file, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`${what} must be a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk.toString();
  return text;
}

/** A CSV value as JSON when it reads as a number, boolean, array or object; else the string. */
export function csvValue(value: string): unknown {
  if (value === '') return undefined;
  if (/^(-?\d+(\.\d+)?|true|false|null|\[.*\]|\{.*\})$/.test(value)) {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}
