/**
 * Answers whose meaning a status or a header carries, named here so that a resource says which
 * one it expects instead of reading HTTP itself: the response schema chosen by status, the 202
 * whose `Location` says where to follow an accepted call, and the 409 that returns the operation
 * already running.
 */

import type { Schema } from './call-spec';

/**
 * A `schema` that picks the response's shape by its status, so each body is checked against its
 * own (a refund request's 202 "accepted" and 200 "existing"); other statuses get `otherwise`.
 */
export function schemaByStatus<S extends Schema, O extends Schema>(
  byStatus: Readonly<Record<number, S>>,
  otherwise: O,
): (status: number) => S | O {
  return (status) => byStatus[status] ?? otherwise;
}

/** Whether the service accepted the call for asynchronous processing (HTTP 202). */
export function isAccepted(response: Response): boolean {
  return response.status === 202;
}

/**
 * Where to follow an accepted call: the `Location` header resolved against the response's URL
 * (it may be relative), or `undefined` without one.
 */
export function followLocation(response: Response): string | undefined {
  const location = response.headers.get('location');
  if (!location) return undefined;
  try {
    return new URL(location, response.url || undefined).href;
  } catch {
    return location;
  }
}

/**
 * Call-spec fields of a call whose 409 answer is the operation already running with the same
 * parameters (a statement export): that answer is a result, not a `ConflictError`, when its body
 * `carriesRunning` the operation; a 409 with any other body stays a `ConflictError`, its body kept.
 */
export function runningOnConflict(carriesRunning: (body: unknown) => boolean) {
  return { acceptStatus: [409], acceptBody: carriesRunning } as const;
}

/** Whether the answer was the 409 of {@link runningOnConflict}. */
export function isAlreadyRunning(response: Response): boolean {
  return response.status === 409;
}
