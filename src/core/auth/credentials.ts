/**
 * The credentials of one call to `baseUrl`'s origin: the client token (the one held, or the one a
 * login gives) and the seller's token of a `forUser` client. They are taken at once when nothing
 * has to be awaited for them (most calls), so that such a call waits on nothing before it is sent.
 */

import type { APIError, AuthenticationError, RequestIdentity, ValidationIssue } from '../errors';
import { bearerFailure, tokenFailure, withAuthHint } from '../errors/mapping';
import type { TokenSource } from '../options';
import { type ClientTokenManager, knownToken, resolveToken, tokenIssue } from './token-manager';

/** The credentials an attempt carries; either may be absent. */
export interface Credentials {
  clientToken: string | undefined;
  bearer: string | undefined;
}

/**
 * The credentials when nothing has to be awaited for them: the client token is held and the
 * seller's token (`bearer`), if any, is a string. `undefined` when a login or a token function
 * has to run first ({@link awaitCredentials}).
 */
export function knownCredentials(
  tokens: ClientTokenManager,
  bearer: TokenSource | undefined,
): Credentials | undefined {
  const clientToken = tokens.known();
  if (clientToken === undefined) return undefined;
  if (!bearer) return { clientToken, bearer: undefined };
  const known = knownToken(bearer);
  return known === undefined ? undefined : { clientToken, bearer: known };
}

/**
 * The credentials after the login (`onLogin` is told before it starts) or the token function they
 * wait for, each failure as the SDK's error naming the call (`identity`).
 */
export async function awaitCredentials(
  tokens: ClientTokenManager,
  bearer: TokenSource | undefined,
  identity: RequestIdentity,
  onLogin: () => void,
): Promise<Credentials> {
  let clientToken = tokens.known();
  if (clientToken === undefined) {
    onLogin();
    clientToken = await tokens.current().catch((error: unknown) => {
      throw tokenFailure(error, identity);
    });
  }
  const resolved = bearer
    ? (knownToken(bearer) ??
      (await resolveToken(bearer).catch((error: unknown) => {
        throw bearerFailure(error);
      })))
    : undefined;
  return { clientToken, bearer: resolved };
}

/** What is wrong with a seller's token given to `forUser`, or `undefined` when it can be sent. */
export function publicTokenIssue(publicToken: unknown): ValidationIssue | undefined {
  if (typeof publicToken === 'function') return undefined;
  const path = ['publicToken'];
  if (typeof publicToken !== 'string' || publicToken === '') {
    const message = 'expected a non-empty string or a function returning one';
    return { path, message, code: 'invalid_type' };
  }
  // Refused here, never quoted: fetch's own error would carry the token in its message.
  const message = tokenIssue(publicToken);
  return message === undefined ? undefined : { path, message, code: 'invalid_string' };
}

/**
 * The 401 that ends a call whose client token was refused (and, `replayed`, refused again once
 * renewed), saying which token was at fault.
 */
export function refusal(
  tokens: ClientTokenManager,
  error: AuthenticationError,
  bearer: string | undefined,
  replayed: boolean,
): APIError {
  if (bearer === undefined) return withAuthHint(error, 'client');
  // A fresh client token refused too: the seller's token is at fault, and its next calls do
  // not log in again for it within the minute.
  if (replayed) tokens.refuseBearer(bearer);
  return withAuthHint(error, tokens.isRefusedBearer(bearer) ? 'seller' : 'either');
}
