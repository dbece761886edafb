/**
 * The script of the bulk guide's "The mock in a script or a CI step" runs as written in
 * bash, in a temporary directory, with `partner-sdk` the CLI from source (an executable on `PATH`
 * that `exec`s node, so `$!` is the mock's own pid as with the installed command) and its fixed
 * port swapped for a free one: the machine's other tests may hold 4010.
 */

import { execFile } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/doc-snippets';
import { freePort } from '../helpers/http-servers';

const GUIDE = 'docs/bulk-and-cli.md';
const SECTION = '### The mock in a script or a CI step';

/** The section's `sh` block. */
function script(): string {
  const text = readFileSync(`${ROOT}${GUIDE}`, 'utf8');
  const from = text.indexOf('```sh\n', text.indexOf(SECTION));
  if (from === -1 || text.indexOf(SECTION) === -1)
    throw new Error(`${GUIDE}: no sh block under ${SECTION}`);
  return text.slice(from + '```sh\n'.length, text.indexOf('\n```\n', from));
}

/** `env` without the caller's own client token or profile, so only the script's variables decide. */
function withoutCallersSetup(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { PARTNER_API_CLIENT_TOKEN: _token, PARTNER_SDK_PROFILE: _profile, ...rest } = env;
  return rest;
}

describe(`the mock script of ${GUIDE}`, () => {
  it('starts the mock, reads its variables, calls it as two sellers and stops it with 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'partner-cli-mock-script-'));
    try {
      const bin = join(dir, 'bin');
      mkdirSync(bin);
      const cli = [
        process.execPath,
        '--import',
        `${ROOT}packages/cli/test/register.ts`,
        `${ROOT}packages/cli/src/bin.ts`,
      ];
      writeFileSync(join(bin, 'partner-sdk'), `#!/bin/sh\nexec ${cli.join(' ')} "$@"\n`);
      chmodSync(join(bin, 'partner-sdk'), 0o755);
      const body = script();
      expect(body).toContain('--port 4010');
      const { stdout } = await promisify(execFile)(
        'bash',
        ['-e', '-c', body.replace('--port 4010', `--port ${await freePort()}`)],
        {
          cwd: dir,
          env: withoutCallersSetup({ ...process.env, PATH: `${bin}:${process.env.PATH}` }),
          timeout: 120_000,
        },
      );
      const lines = stdout.trim().split('\n');
      expect(JSON.parse(lines[0]!)).toHaveProperty('hash');
      // The added company seller owns no fee tier: its history prints nothing.
      expect(lines.slice(1)).toEqual(['mock exit 0']);
      expect(existsSync(join(dir, 'mock.env'))).toBe(false);
      expect(JSON.parse(readFileSync(join(dir, 'mock.json'), 'utf8')).sellers).toHaveLength(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);
});
