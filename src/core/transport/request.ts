/**
 * Request building: where a call goes (its URL, how errors name it, whether it stays on
 * `baseUrl`'s origin), the headers of each attempt (the SDK's own, `defaultHeaders`, the
 * credentials) and the ky options that carry the rest.
 */

import type { Options as KyOptions } from 'ky';
import { API_VERSION, VERSION } from '../../version';
import type { Credentials } from '../auth/credentials';
import type { RequestIdentity } from '../errors';
import { registerSecret } from '../logging/known-secrets';
import { CREDENTIAL_NAME } from '../logging/redact';
import type { QueryParams, ReadyCallSpec } from './call-spec';

const USER_AGENT = `partner-sdk/${VERSION} (${runtimeName()}) partner-api/${API_VERSION}`;

function runtimeName(): string {
  const g = globalThis as { Bun?: { version: string }; Deno?: { version: { deno: string } } };
  if (g.Bun) return `bun ${g.Bun.version}`;
  if (g.Deno) return `deno ${g.Deno.version.deno}`;
  if (typeof process !== 'undefined' && process.versions?.node) {
    return `node ${process.versions.node}; ${process.platform}`;
  }
  return 'fetch';
}

/** Where a call goes. */
export interface Target {
  /** The absolute URL, without the call's query. */
  url: string;
  /** How errors and logs name the call: the path under `baseUrl`, never a URL's query. */
  identity: RequestIdentity;
  /** Whether `url` is on `baseUrl`'s origin: only there do credentials and `defaultHeaders` go. */
  onOrigin: boolean;
}

/** Where `spec` goes, given the client's `baseUrl` and its origin. */
export function targetOf(spec: ReadyCallSpec, baseUrl: string, origin: string): Target {
  const absolute = /^https?:\/\//i.test(spec.path);
  const url = absolute ? spec.path : `${baseUrl}${spec.path}`;
  // Named without the query: a pre-signed file URL carries its signature there.
  const shown = absolute ? withoutQuery(url) : url;
  if (absolute) rememberQueryCredentials(url);
  // `baseUrl` itself (a redirect or a status URL pointing there) is its root, `/`: an error never
  // names an empty path.
  const under = shown === baseUrl || shown.startsWith(`${baseUrl}/`);
  const path = under ? shown.slice(baseUrl.length) || '/' : shown;
  // A path from `/` stays on baseUrl's origin; only other URLs need parsing to tell.
  const onOrigin =
    !spec.leftOrigin &&
    ((!absolute && spec.path.startsWith('/')) || new URL(url).origin === origin);
  return { url, identity: { method: spec.method, path }, onOrigin };
}

/**
 * The headers of one attempt, as a plain object with lower-case names (ky merges it without
 * building `Headers` of its own). `defaultHeaders` may carry a partner's own secrets (a gateway
 * key): like the credentials they go to `baseUrl`'s origin only. The SDK's own headers come last,
 * so neither `defaultHeaders` nor per-call ones override them.
 */
export function attemptHeaders(
  spec: ReadyCallSpec,
  target: Target,
  defaults: Readonly<Record<string, string>>,
  perCall: Readonly<Record<string, string>> | undefined,
  credentials: Credentials,
): Record<string, string> {
  const headers: Record<string, string> = {
    ...(target.onOrigin ? defaults : undefined),
    ...(perCall && lowerCaseNames(perCall)),
    accept: spec.raw ? '*/*' : 'application/json',
    'user-agent': USER_AGENT,
  };
  if (spec.uncached) headers['cache-control'] = 'no-cache';
  if (credentials.clientToken !== undefined)
    headers['x-api-client-token'] = credentials.clientToken;
  if (credentials.bearer !== undefined) headers.authorization = `Bearer ${credentials.bearer}`;
  return headers;
}

/** `headers` with lower-case names, so that a later lower-case one replaces it. */
export function lowerCaseNames(headers: Readonly<Record<string, string>>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const name of Object.keys(headers)) result[name.toLowerCase()] = headers[name]!;
  return result;
}

/**
 * The ky options of a call and the URL to give ky. Only what varies per call is set: ky merges
 * every key of these options on every attempt. Every call sees its redirects and follows them
 * itself (`redirects.ts`), deciding credentials per origin: fetch would carry them anywhere.
 */
export function kyRequest(
  spec: ReadyCallSpec,
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
): { request: KyOptions; target: string } {
  const request: KyOptions = { headers, redirect: 'manual' };
  // GET is ky's default method.
  if (spec.method !== 'GET') request.method = spec.method;
  if (signal) request.signal = signal;
  if (spec.json !== undefined) request.json = spec.json;
  if (spec.form) request.body = spec.form;
  if (!spec.query) return { request, target: url };
  // A URL with a query or fragment of its own (a pre-signed file) is left for ky to extend.
  if (/[?#]/.test(url)) {
    request.searchParams = definedParams(spec.query);
    return { request, target: url };
  }
  return { request, target: url + encodedQuery(spec.query) };
}

function definedParams(query: QueryParams): Record<string, string> {
  const result: Record<string, string> = {};
  for (const key of Object.keys(query)) {
    const value = query[key];
    if (value !== undefined) result[key] = queryText(value);
  }
  return result;
}

/**
 * The query's defined parameters as `?name=value&…`, or `''` when none is defined, each name and
 * value through `encodeURIComponent` (a space is `%20`, which servers read as `+` writes it). A
 * name or value no URL can carry (a lone surrogate) never gets here: `readySpec` refused the call.
 */
function encodedQuery(query: QueryParams): string {
  let search = '';
  for (const key of Object.keys(query)) {
    const value = query[key];
    if (value === undefined) continue;
    search += `${search ? '&' : '?'}${encodeURIComponent(key)}=${encodeURIComponent(queryText(value))}`;
  }
  return search;
}

/** A query value as text: a boolean as `1`/`0`, as in a form, which a Laravel `boolean` rule reads (`true` it refuses). */
function queryText(value: string | number | boolean): string {
  return typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
}

/**
 * The credentials in an absolute URL's query (a pre-signed file's signature) join the secrets
 * masked everywhere: the file's host may echo them in its refusal (S3's `SignatureProvided`).
 */
function rememberQueryCredentials(url: string): void {
  const query = url.indexOf('?');
  if (query === -1) return;
  for (const [name, value] of new URLSearchParams(url.slice(query + 1).replace(/#.*$/s, ''))) {
    if (CREDENTIAL_NAME.test(name)) registerSecret(value);
  }
}

/** `url` without its query and fragment: how errors and logs name a URL (a pre-signed one keeps its signature there). */
export function withoutQuery(url: string): string {
  return url.replace(/[?#].*$/s, '');
}
