/**
 * What a client shows of itself to `util.inspect` (so `console.log`) and `JSON.stringify`: where
 * it calls and as which client. Its options hold the client secret, the client token and the
 * credentials of `defaultHeaders`, and a seller client holds its bearer: none of them is shown,
 * since a client logged by the partner's own code passes through no redaction of the SDK's.
 */

import type { ResolvedOptions } from './index';

/** Node's (and Bun's) hook for `util.inspect`, named without importing `node:util`. */
export const INSPECT: unique symbol = Symbol.for('nodejs.util.inspect.custom');

/** What `JSON.stringify` of a client gives, and `util.inspect` shows after its class name. */
export interface ClientSummary {
  /** The API base URL its calls go to. */
  baseUrl: string;
  /** The client id it logs in with, when it has one (an identifier, not a credential). */
  clientId?: string;
}

/** The summary of a client running on `options`. */
export function clientSummary(options: ResolvedOptions): ClientSummary {
  const { baseUrl, clientId } = options;
  return clientId === undefined ? { baseUrl } : { baseUrl, clientId };
}

/**
 * `util.inspect`'s rendering of a client: its class name and summary, formatted by the `inspect`
 * Node hands the hook (colours and depth as the caller asked), or as JSON where none is given.
 */
export function inspectedClient(
  name: string,
  summary: ClientSummary,
  options: unknown,
  inspect: unknown,
): string {
  const shown =
    typeof inspect === 'function'
      ? (inspect as (value: unknown, options: unknown) => string)(summary, options)
      : JSON.stringify(summary);
  return `${name} ${shown}`;
}
