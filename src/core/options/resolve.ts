/**
 * The one place that applies the options' environment defaults and checks them, so a wrong option
 * fails at construction with a message naming it, not at the first call.
 */

import { type ResolvedAssumptions, resolveAssumptions } from '../../assumptions';
import { hasMethod } from '../../shared/has-method';
import { NOT_IN_HEADER, NOT_IN_HEADER_NAMED, tokenIssue } from '../auth/token-manager';
import type { ClientTokenStore } from '../auth/token-store';
import { ownedSecrets, registerSecret } from '../logging/known-secrets';
import { createLogger, parseLogLevel, warnOfUnknownLevel } from '../logging/logger';
import { CREDENTIAL_NAME } from '../logging/redact';
import type { RequestPace } from '../pace/index';
import { isTimerDelay, MAX_TIMER_MS } from '../time/clock';
import { checkClientOptionsShape } from './client-options-shape';
import { isOptionsObject, type OptionsOf, optionError, shownValue } from './given';
import type { ClientOptions, ResolvedOptions } from './index';

function env(name: string): string | undefined {
  const value = typeof process === 'undefined' ? undefined : process.env?.[name];
  return value === '' ? undefined : value;
}

/** The options a call may override, with the client's defaults: each is checked the same way. */
export type CallSettings = Pick<
  ResolvedOptions,
  'timeout' | 'totalTimeout' | 'maxRetries' | 'maxResponseBytes' | 'maxUploadBytes'
>;

/** The client's defaults of the call settings. */
export const DEFAULT_SETTINGS: CallSettings = {
  timeout: 30_000,
  totalTimeout: 120_000,
  maxRetries: 2,
  // Far above any documented body, far below harm.
  maxResponseBytes: 32 * 1024 * 1024,
  // The spec states no limit on a file: far above a photo or a scanned document, far below harm.
  maxUploadBytes: 32 * 1024 * 1024,
};

const BYTES = {
  accepts: (value: number) => Number.isSafeInteger(value) && value > 0,
  wanted: 'a positive whole number of bytes',
};

/** What each of those options accepts, and how its message says so. */
const SETTING_RULES: Record<
  keyof CallSettings,
  { accepts(value: number): boolean; wanted: string }
> = {
  timeout: {
    accepts: isTimerDelay,
    wanted: `a positive number of milliseconds up to ${MAX_TIMER_MS}`,
  },
  totalTimeout: {
    accepts: isTimerDelay,
    wanted: `a positive number of milliseconds up to ${MAX_TIMER_MS}`,
  },
  maxRetries: {
    accepts: (value) => Number.isInteger(value) && value >= 0 && value <= 10,
    wanted: 'a whole number from 0 to 10',
  },
  maxResponseBytes: BYTES,
  maxUploadBytes: BYTES,
};

/**
 * Applies defaults and environment, then checks every option; throws a `PartnerError` naming the
 * bad one. `assumptions` are read over `assumptionsBase` (a parent client's, for `withOptions`).
 */
export function resolveOptions(
  options: ClientOptions,
  assumptionsBase?: ResolvedAssumptions,
): ResolvedOptions {
  checkClientOptionsShape(options);
  const url = readBaseUrl(options.baseUrl ?? env('PARTNER_API_BASE_URL'));
  const credentials = readCredentials(options);
  const settings = callSettings(DEFAULT_SETTINGS, options, 'PartnerClient options');
  const tokenStore = readTokenStore(options.tokenStore, credentials.clientId);
  const assumptions = resolveAssumptions(options.assumptions, assumptionsBase);
  if (typeof assumptions === 'string') throw optionError(`${assumptions}.`);
  const resolved: ResolvedOptions = {
    // Paths are appended as `${baseUrl}${path}` with path starting at '/', so drop trailing slashes.
    baseUrl: url.href.replace(/\/+$/, ''),
    origin: url.origin,
    ...credentials,
    ...settings,
    fetch: options.fetch,
    ...readChecks(options),
    defaultHeaders: checkHeaders(options.defaultHeaders, 'defaultHeaders'),
    tokenStore,
    assumptions,
    telemetry: options.telemetry,
    pace: readPace(options.pace),
  };
  // The client's own credentials stay masked while a client made with them lives, however many
  // sellers' tokens pass by; once every such client is collected, they are let go.
  const lasting = Object.entries(resolved.defaultHeaders).filter(([name]) =>
    CREDENTIAL_NAME.test(name),
  );
  const pinned = ownedSecrets(resolved);
  for (const value of [
    credentials.clientSecret,
    credentials.clientToken,
    ...lasting.map(([, value]) => value),
  ]) {
    if (typeof value === 'string') pinned.pin(value);
  }
  return resolved;
}

function readPace(pace: RequestPace | undefined): RequestPace | undefined {
  if (pace !== undefined && !hasMethod(pace, 'forClient')) {
    throw optionError('`pace` must be a RequestPace (e.g. fleetPace).');
  }
  return pace;
}

function readBaseUrl(rawBaseUrl: string | undefined): URL {
  if (!rawBaseUrl) {
    throw optionError(
      '`baseUrl` is missing: pass it (ending in /api/v1) or set PARTNER_API_BASE_URL.',
    );
  }
  let url: URL;
  try {
    url = new URL(rawBaseUrl);
  } catch {
    // Not quoted: the text may still hold a password, a key in its query or a token in its fragment.
    throw optionError('`baseUrl` is not an absolute URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw optionError(`\`baseUrl\` must use http or https (got ${url.protocol}).`);
  }
  if (url.search || url.hash) {
    throw optionError('`baseUrl` must not carry a query string or fragment.');
  }
  // fetch refuses such a URL on every call, and the error and the logs would show the password.
  if (url.username || url.password) {
    throw optionError(
      '`baseUrl` must not carry a user name or password: the client authenticates with `clientToken`, or `clientId` and `clientSecret`.',
    );
  }
  return url;
}

function readCredentials(
  options: ClientOptions,
): Pick<ResolvedOptions, 'clientId' | 'clientSecret' | 'clientToken'> {
  const clientId = options.clientId ?? env('PARTNER_API_CLIENT_ID');
  const clientSecret = options.clientSecret ?? env('PARTNER_API_CLIENT_SECRET');
  const clientToken = options.clientToken ?? env('PARTNER_API_CLIENT_TOKEN');
  if ((clientId === undefined) !== (clientSecret === undefined)) {
    throw optionError(
      clientId === undefined
        ? '`clientId` (or PARTNER_API_CLIENT_ID) is missing: the login needs it beside clientSecret (PARTNER_API_CLIENT_SECRET).'
        : '`clientSecret` (or PARTNER_API_CLIENT_SECRET) is missing: the login needs it beside clientId (PARTNER_API_CLIENT_ID).',
    );
  }
  if (clientId === undefined && clientToken === undefined) {
    throw optionError(
      'no credentials: pass `clientId` and `clientSecret` (or PARTNER_API_CLIENT_ID / PARTNER_API_CLIENT_SECRET), or `clientToken` (or PARTNER_API_CLIENT_TOKEN).',
    );
  }
  // Masked from here on, a token refused below included; pinned once the client is made.
  registerSecret(clientSecret);
  if (typeof clientToken === 'string') {
    registerSecret(clientToken);
    const issue = tokenIssue(clientToken);
    if (issue) throw optionError(`\`clientToken\` ${issue}.`);
  }
  return { clientId, clientSecret, clientToken };
}

/** `validateResponses` checked, and the logger at the level asked for (`logLevel`, else PARTNER_API_LOG). */
function readChecks(options: ClientOptions): Pick<ResolvedOptions, 'validateResponses' | 'logger'> {
  // Only an absent option takes the default: `null` is refused here as every other option refuses it.
  const { validateResponses = 'strict' } = options;
  if (!['strict', 'warn', 'off'].includes(validateResponses)) {
    // The wrong value is not quoted, here or below: the caller's code shows it, and a log line could not.
    throw optionError("`validateResponses` must be 'strict', 'warn' or 'off'.");
  }
  // Read as PARTNER_API_LOG is, whatever its case: `'OFF'` is `'off'`.
  const fromEnv = options.logLevel === undefined ? env('PARTNER_API_LOG') : undefined;
  const logLevel =
    options.logLevel === undefined
      ? (parseLogLevel(fromEnv) ?? 'warn')
      : parseLogLevel(options.logLevel);
  if (logLevel === undefined) {
    throw optionError("`logLevel` must be 'off', 'error', 'warn', 'info' or 'debug'.");
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw optionError('`fetch` must be a function.');
  }
  const logger = createLogger(options.logger ?? console, logLevel);
  warnOfUnknownLevel(logger, fromEnv);
  return { validateResponses, logger };
}

function readTokenStore(
  tokenStore: ClientTokenStore | undefined,
  clientId: string | undefined,
): ClientTokenStore | undefined {
  if (tokenStore === undefined) return undefined;
  if (!hasMethod(tokenStore, 'obtain')) {
    throw optionError('`tokenStore` must have an `obtain` method (a ClientTokenStore).');
  }
  if (clientId === undefined) {
    throw optionError('`tokenStore` shares logins: it needs `clientId` and `clientSecret`.');
  }
  return tokenStore;
}

/**
 * `base` with the overrides `options` sets, each checked: a call's settings over its client's
 * (a wrong one named as a request option), and a client's over the defaults.
 */
export function callSettings(
  base: CallSettings,
  options: Partial<CallSettings> | undefined,
  whose: OptionsOf = 'request options',
): CallSettings {
  const settings = {} as Record<keyof CallSettings, number>;
  for (const name of Object.keys(SETTING_RULES) as (keyof CallSettings)[]) {
    const value = options?.[name];
    const { accepts, wanted } = SETTING_RULES[name];
    if (value !== undefined && !accepts(value)) {
      throw optionError(`\`${name}\` must be ${wanted} (got ${shownValue(value)}).`, whose);
    }
    settings[name] = value ?? base[name];
  }
  return settings;
}

/** An HTTP header name: RFC 9110's token characters. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * A copy of `headers` once every name and value can be sent, else a `PartnerError` naming the bad
 * header (`option` says whose). A value is never quoted: a header may carry a partner's secret.
 */
export function checkHeaders(
  headers: Readonly<Record<string, string>> | undefined,
  option: 'defaultHeaders' | 'headers',
): Record<string, string> {
  const result: Record<string, string> = {};
  if (headers === undefined) return result;
  const whose: OptionsOf = option === 'headers' ? 'request options' : 'PartnerClient options';
  const fail = (message: string) => optionError(message, whose);
  if (!isOptionsObject(headers)) {
    throw fail(`\`${option}\` must be an object of header names and values.`);
  }
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) {
      throw fail(
        `\`${option}\` has a name that is not an HTTP header name (entry ${Object.keys(headers).indexOf(name) + 1}).`,
      );
    }
    if (typeof value !== 'string') {
      throw fail(`\`${option}\` value of ${name} must be a string (got ${shownValue(value)}).`);
    }
    if (NOT_IN_HEADER.test(value)) {
      throw fail(`\`${option}\` value of ${name} contains ${NOT_IN_HEADER_NAMED}.`);
    }
    // A header named for a credential (a gateway key) is masked wherever the SDK shows text, as
    // the client's own are; a client's lasting headers are pinned with its credentials.
    if (CREDENTIAL_NAME.test(name)) registerSecret(value);
    result[name] = value;
  }
  return result;
}
