#!/usr/bin/env node
/**
 * The `partner-sdk` command. See `partner-sdk --help` and `docs/bulk-and-cli.md`.
 *
 * @module
 */

import { main } from './program';

// A reader that stops reading (`| head`) ends the command quietly, as Unix tools do; a journaled
// job resumes where it stopped.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(141);
  throw error;
});

const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
});
process.exitCode = code;
