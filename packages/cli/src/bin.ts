#!/usr/bin/env node
/**
 * The `partner-sdk` command. See `partner-sdk --help` and `docs/bulk-and-cli.md`.
 *
 * @module
 */

import { main } from './program';

const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
});
process.exitCode = code;
