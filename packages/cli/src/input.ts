/**
 * Reading a command's input: hashes from arguments, a file or stdin (one per line, or CSV), and
 * JSON parameters from an argument, `@file` or stdin.
 *
 * @module
 */

import { type FileHandle, open, readFile } from 'node:fs/promises';
import { StreamedInputError, UsageError } from './context';

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

/** The longest input line read (CSV, JSON lines or a hash), in characters. */
export const MAX_LINE = 65_536;

/** The longest hash accepted (the spec gives none; real ones are a few dozen characters). */
export const MAX_HASH = 128;

/** One line of input and its number (from 1), for messages that name it. */
export interface Line {
  text: string;
  number: number;
}

type Fail = new (message: string) => Error;

async function openFile(file: string): Promise<NodeJS.ReadableStream> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file);
    // A directory opens fine and fails only at the first read: refuse it here, as a usage error.
    if ((await handle.stat()).isDirectory()) throw new Error('a directory, not a file');
  } catch (error) {
    await handle?.close();
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  return handle.createReadStream();
}

/**
 * The lines of a file (`-`: stdin), read lazily. A line longer than {@link MAX_LINE} is refused
 * with `fail` as soon as it is, naming its number and never quoting it (it is never held whole).
 * So is a line that is not UTF-8 text: decoded with replacement characters, a name saved as
 * Latin-1 (as spreadsheets often save it) would reach the service altered.
 */
export async function* linesOf(
  file: string,
  stdin: NodeJS.ReadableStream,
  fail: Fail = UsageError,
): AsyncGenerator<Line> {
  const stream = file === '-' ? stdin : await openFile(file);
  const where = file === '-' ? 'stdin' : file;
  const tooLong = (number: number) =>
    new fail(`${where}:${number}: line longer than ${MAX_LINE} characters (the limit)`);
  const decode = (bytes: Uint8Array, number: number): Line => {
    let text: string;
    try {
      text = STRICT_UTF8.decode(bytes);
    } catch {
      throw new fail(`${where}:${number}: not UTF-8 text (save the file as UTF-8)`);
    }
    if (text.length > MAX_LINE + 1) throw tooLong(number);
    return { text: text.replace(/\r$/, ''), number };
  };
  // Split on the newline byte, which UTF-8 never uses inside a character; each line is decoded on
  // its own, so a bad byte is named by its line.
  let pending: Buffer = Buffer.alloc(0);
  let number = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    pending = pending.length === 0 ? bytes : Buffer.concat([pending, bytes]);
    let start = 0;
    for (let end = pending.indexOf(NEWLINE); end !== -1; end = pending.indexOf(NEWLINE, start)) {
      number++;
      if (end - start > MAX_LINE_BYTES) throw tooLong(number);
      yield decode(pending.subarray(start, end), number);
      start = end + 1;
    }
    pending = pending.subarray(start);
    if (pending.length > MAX_LINE_BYTES) throw tooLong(number + 1);
  }
  if (pending.length > 0) yield decode(pending, number + 1);
}

const NEWLINE = 0x0a;
/**
 * The most bytes a line of {@link MAX_LINE} characters (and its `\r`) takes in UTF-8: three per
 * UTF-16 code unit at most (a character outside the BMP is four bytes for two units).
 */
const MAX_LINE_BYTES = 3 * (MAX_LINE + 1);
/** Refuses bytes that are not UTF-8; a byte-order mark at a line's start is dropped. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

const HEADER_NAMES = new Set(['hash', 'transaction_hash', 'transaction', 'transactionhash', 'id']);

/** Checks one hash; a message naming where it came from, never quoting a long one. */
export function checkHash(value: string, where: string, fail: Fail = UsageError): string {
  if (value.length > MAX_HASH) {
    throw new fail(`${where}: hash longer than ${MAX_HASH} characters (${value.length})`);
  }
  if (/[\s\p{Cc}]/u.test(value)) {
    throw new fail(`${where}: a hash cannot contain spaces or control characters`);
  }
  return value;
}

/**
 * A hash (or code) given as a command's argument, checked as a hash of a file is: `<name>` names it
 * in the message, which never quotes it, and nothing is sent.
 */
export function hashArgument(name: string, value: string): string {
  return checkHash(value, `<${name}>`);
}

/** The hashes of a file or stdin: one per line or a CSV's first column, header and `#` skipped. */
async function* hashLines(
  file: string,
  stdin: NodeJS.ReadableStream,
  fail: Fail,
): AsyncGenerator<string> {
  let first = true;
  for await (const { text, number } of linesOf(file, stdin, fail)) {
    const line = text.trim();
    if (line === '' || line.startsWith('#')) continue;
    const value = line.includes(',') || line.startsWith('"') ? csvFields(line)[0]! : line;
    const header = first && HEADER_NAMES.has(value.toLowerCase());
    first = false;
    if (!header) yield checkHash(value, `${file === '-' ? 'stdin' : file}:${number}`, fail);
  }
}

/** Hashes to work on and, when it is known before starting, how many. */
export interface HashInput {
  items: Iterable<string> | AsyncIterable<string>;
  total: number | undefined;
}

/**
 * Hashes from the arguments, else from `--file` (or stdin when it is piped). Arguments and files
 * are checked whole (and counted) before anything is sent: a bad one is a usage error naming it.
 * A file is then read again lazily, so a million hashes never sit in memory. Stdin may be
 * endless: it is checked line by line as the job reads it ({@link StreamedInputError}).
 */
export async function hashInput(
  args: string[],
  file: string | undefined,
  stdin: NodeJS.ReadableStream & { isTTY?: boolean },
): Promise<HashInput> {
  if (args.length > 0 && file !== undefined) {
    throw new UsageError('give hashes as arguments or with --file, not both');
  }
  if (args.length > 0) {
    for (const [i, hash] of args.entries()) checkHash(hash, `argument ${i + 1}`);
    return { items: args, total: args.length };
  }
  if (file === undefined && stdin.isTTY) {
    throw new UsageError('no hashes: give them as arguments, with --file FILE, or on stdin');
  }
  if (file === undefined || file === '-') {
    return { items: hashLines('-', stdin, StreamedInputError), total: undefined };
  }
  let total = 0;
  for await (const _ of hashLines(file, stdin, UsageError)) total++;
  return { items: hashLines(file, stdin, StreamedInputError), total };
}

/** A JSON object from `--data`: inline JSON, `@file`, or `@-` for stdin. */
export async function jsonArgument(
  value: string,
  stdin: NodeJS.ReadableStream,
  what: string,
): Promise<Record<string, unknown>> {
  const text = value.startsWith('@') ? await readText(value.slice(1), stdin) : value;
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

/**
 * A whole file's text (`-`: stdin), as {@link linesOf} reads each line: UTF-8, a byte-order mark
 * skipped, and a file that is not UTF-8 refused naming its first such line. Decoded once from all
 * its bytes, so a character split between two reads of a pipe stays whole.
 */
export async function readText(file: string, stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  try {
    if (file === '-') {
      for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer | string));
    } else chunks.push(await readFile(file));
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  const bytes = Buffer.concat(chunks);
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    const lines = bytes.toString('latin1').split('\n');
    const bad = lines.findIndex((line) => {
      try {
        STRICT_UTF8.decode(Buffer.from(line, 'latin1'));
        return false;
      } catch {
        return true;
      }
    });
    const where = file === '-' ? 'stdin' : file;
    throw new UsageError(`${where}:${bad + 1}: not UTF-8 text (save the file as UTF-8)`);
  }
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
