/**
 * A partner's project with `exactOptionalPropertyTypes` (which the README names among the settings
 * the declarations are checked under) passes an option it holds as `T | undefined` straight on:
 * `undefined` means "the default" at run time, so every option type a waiting or a test of the
 * kit takes says so too, as `ClientOptions`, `RequestOptions` and `BulkOptions` do. Compiled here
 * with the TypeScript compiler over the source, that one setting turned on.
 */

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import ts from 'typescript';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers/doc-snippets';

const PARTNER_FILE = `
import type { PollOptions } from 'partner-sdk';
import { deliver } from 'partner-sdk/testing';

declare const signal: AbortSignal | undefined;
declare const ms: number | undefined;

export const waitOptions: PollOptions = { interval: ms, maxInterval: ms, timeout: ms, signal, onStatus: undefined };
export const delivered = deliver('http://127.0.0.1:3000/webhooks', {}, { timeoutMs: ms, signal });
`;

it('options held as T | undefined compile under exactOptionalPropertyTypes', () => {
  const dir = `${ROOT}.tmp/exact-optional`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const file = `${dir}/partner.ts`;
  writeFileSync(file, PARTNER_FILE);
  const config = ts.readConfigFile(`${ROOT}tsconfig.json`, ts.sys.readFile).config;
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
  const program = ts.createProgram([file], { ...options, exactOptionalPropertyTypes: true });
  const problems = ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file?.fileName === file)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '));
  expect(problems).toEqual([]);
}, 60_000);
