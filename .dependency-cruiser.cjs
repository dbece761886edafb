/**
 * The layering of `src/` as a checked rule (`npm run lint` runs `depcruise`). CONTRIBUTING.md
 * explains the layers; this file is what holds them. A rule broken here fails CI.
 *
 *   shared/        pure data helpers (timestamps): imports nothing of ours
 *   schemas/       zod schemas: data only, never HTTP (no core/, resources/, client)
 *   core/          HTTP and its machinery: knows nothing above it (resources, client, entries)
 *   resources/     one namespace per file: calls described over core/
 *   client.ts, index.ts, webhooks/, bulk/, redis/: the shipped entries, which never reach testing/
 *   testing/       the mock API (`partner-sdk/testing`): may use the rest but the SDK's rules (core/, schemas/, shared/), nothing ships it
 */

/**
 * The transport's own files, the only ones that may import ky: the engine, the attempt loop, the
 * request it builds, the retry decision and the mapping of ky's errors.
 */
const TRANSPORT =
  '^src/core/(transport/(engine|attempts|request)|retry/policy|errors/mapping)\\.ts$';

/**
 * What each other shipped entry may take from core/: its public surface for that entry, named
 * module by module. Anything else in core/ is the client's machinery; reaching for it from an
 * entry would make a second engine beside the client's (a bulk job calls the client, and reads
 * failures through core's one classification).
 */
const CORE_ALLOWED = {
  bulk: [
    'errors/index',
    'options/given',
    'options/index',
    'options/request-options-shape',
    'transport/path',
    'poll/index',
    'retry/classify',
    'time/sleep',
    'validation/index',
  ],
  webhooks: [
    'errors/index',
    'logging/known-secrets',
    'logging/logger',
    'logging/redact',
    'time/clock',
  ],
  redis: ['errors/index', 'auth/token-store', 'pace/index', 'time/clock', 'time/sleep'],
  bullmq: [
    'errors/index',
    'options/index',
    'options/request-options-shape',
    'retry/classify',
    'retry/retry-after',
    'time/clock',
    'time/sleep',
    'transport/path',
    'validation/index',
  ],
};

/** A rule holding `entry` to its allowed list of core modules. */
const coreAllowedFor = (entry) => ({
  name: `${entry}-takes-only-its-core-modules`,
  comment: `src/${entry}/ may import only these core modules: ${CORE_ALLOWED[entry].join(', ')}.`,
  severity: 'error',
  from: { path: `^src/${entry}/` },
  to: { path: '^src/core/', pathNot: `^src/core/(${CORE_ALLOWED[entry].join('|')})\\.ts$` },
});

/** The shipped entry points other than `partner-sdk/testing` and `/testing/msw`. */
const SHIPPED_ENTRIES =
  '^src/(index\\.ts|webhooks/index\\.ts|bulk/index\\.ts|redis/index\\.ts|bullmq/index\\.ts)$';

module.exports = {
  forbidden: [
    {
      name: 'shared-imports-nothing-of-ours',
      comment: 'src/shared holds plain data helpers that every layer may use: it depends on none.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: '^src/', pathNot: '^src/shared/' },
    },
    {
      name: 'schemas-know-only-data',
      comment: 'schemas/ describe data; HTTP (core/), resources and the client are above them.',
      severity: 'error',
      from: { path: '^src/schemas/' },
      to: {
        path: '^src/(core|resources|testing|webhooks|bulk|redis)/|^src/(client|index)\\.ts$',
      },
    },
    {
      name: 'core-knows-nothing-above-it',
      comment:
        'core/ knows HTTP and nothing about refunds: no resources/, client.ts, testing/ or entries.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: {
        path: '^src/(resources|testing|webhooks|bulk|redis)/|^src/(client|index)\\.ts$',
      },
    },
    coreAllowedFor('bulk'),
    coreAllowedFor('webhooks'),
    coreAllowedFor('redis'),
    coreAllowedFor('bullmq'),
    {
      name: 'resources-over-core-only',
      comment: 'A resource names paths and schemas over core/; it never reaches the client or kit.',
      severity: 'error',
      from: { path: '^src/resources/' },
      to: { path: '^src/(testing|webhooks|bulk|redis)/|^src/(client|index)\\.ts$' },
    },
    {
      name: 'telemetry-stands-alone',
      comment:
        'src/telemetry is the OpenTelemetry side of a narrow interface: it imports nothing of ours ' +
        'but the version, so its lazily loaded chunk shares no code with the root.',
      severity: 'error',
      from: { path: '^src/telemetry/' },
      to: { path: '^src/', pathNot: '^src/(telemetry/|version\\.ts$)' },
    },
    {
      name: 'ky-only-in-the-transport',
      comment: 'ky is an implementation detail of the transport: nothing else in src/ imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: TRANSPORT },
      to: { path: '(^|/)node_modules/ky/' },
    },
    {
      name: 'entries-never-import-testing',
      comment:
        'webhooks/, bulk/ and redis/ ship to partners; the testing kit does not ship with them.',
      severity: 'error',
      from: { path: '^src/(webhooks|bulk|redis|resources|core|shared|schemas)/|^src/client\\.ts$' },
      to: { path: '^src/testing/' },
    },
    {
      name: 'kit-writes-its-own-rules',
      comment:
        'The testing kit answers from the spec: a rule it took from the SDK (schemas/, core/, ' +
        'shared/, the assumptions) would let both agree by construction. Only the pause is shared.',
      severity: 'error',
      from: { path: '^src/testing/' },
      to: {
        path: '^src/(core|schemas|shared|resources)/|^src/(assumptions|assumption-readers|client|index)\\.ts$',
        pathNot: '^src/core/time/sleep\\.ts$',
      },
    },
    {
      name: 'shipped-client-never-reaches-testing',
      comment:
        'What `partner-sdk` (and /webhooks, /bulk, /redis) loads must not reach the testing kit, ' +
        'however indirectly: it would ship the mock API in every bundle.',
      severity: 'error',
      from: { path: SHIPPED_ENTRIES },
      to: { path: '^src/testing/', reachable: true },
    },
    {
      name: 'no-circular',
      comment:
        'A cycle makes two modules one: split out what both need instead. Cycles through ' +
        'type-only imports vanish at run time and are allowed.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'src-never-imports-tests',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench|examples|scripts)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // src/ is ESM TypeScript: a local function named `require` (the mock's validation) is no import.
    moduleSystems: ['es6'],
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
