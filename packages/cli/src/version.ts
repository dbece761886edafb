/**
 * The CLI package's own version, read from its `package.json` (one level above both `src/` and
 * the built `dist/`): the CLI is released apart from the SDK, so the SDK's version is not its own.
 */

import { createRequire } from 'node:module';

/** The version of `partner-sdk-cli` running now. */
export const CLI_VERSION: string = (
  createRequire(import.meta.url)('../package.json') as { version: string }
).version;
