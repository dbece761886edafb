#!/usr/bin/env node
// The command npm links at install time. It is a committed file, not the build output itself, so
// that a clone's `npm install` links `partner-sdk` before anything is built; it then loads the build.
import { existsSync } from 'node:fs';

const built = new URL('../dist/bin.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  process.stderr.write(
    'partner-sdk: the command is not built yet: run `npm run build` at the repository root\n',
  );
  process.exitCode = 2;
}
