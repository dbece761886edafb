/**
 * Runs the CLI from source, with no build, through the examples' loader (which maps `partner-sdk`
 * and its subpaths to `src/` and resolves extensionless imports in the CLI's own `src/`).
 * `node --import ./packages/cli/test/register.ts packages/cli/src/bin.ts --help`
 *
 * @module
 */

// The examples' loader, by URL (a `.ts` specifier would need allowImportingTsExtensions). It also
// resolves the extensionless imports of the CLI's own src/.
await import(new URL('../../../examples/support/register.ts', import.meta.url).href);
