/**
 * What a plain JavaScript caller may hand where the types ask for an options object: anything. These
 * read such a value without running the caller's code (no `toString`, no `toJSON`), so a message
 * about a bad value is always built, and name the keys no options object of that kind has.
 */

import { shortened } from '../../shared/cut-text';
import { hasMethod } from '../../shared/has-method';
import { isRecord } from '../../shared/is-record';
import { kindOf } from '../../shared/kind-of';
import { PartnerError } from '../errors';
import { closestName } from '../validation/unknown-keys';
import type { ClientOptions } from './index';

/** A short account of `value` for a message: numbers and booleans as written, anything else by kind. */
export function shownValue(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'bigint' ? `${value}n` : kindOf(value);
}

/** Whose options a message names: a client's, or one call's (its `RequestOptions`). */
export type OptionsOf = 'PartnerClient options' | 'request options';

/** The error for a wrong option, naming whose options it is among. */
export function optionError(
  message: string,
  whose: OptionsOf = 'PartnerClient options',
): PartnerError {
  return new PartnerError(`Invalid ${whose}: ${message}`);
}

/** Whether `value` can be an options object: an object that is not an array (nor a function). */
export const isOptionsObject = isRecord;

/**
 * A sentence for each own key of `value` outside `known`: `` `timout` is not an option; did you
 * mean `timeout`? ``.
 */
export function unknownOptions(value: object, known: readonly string[]): string[] {
  return Object.keys(value)
    .filter((key) => !known.includes(key))
    .map((key) => {
      const guess = closestName(key, known);
      // Escaped and cut: a key with line breaks would forge a line of the log printing the message.
      const shown = JSON.stringify(shortened(key, 40)).slice(1, -1);
      return `\`${shown}\` is not an option${guess ? `; did you mean \`${guess}\`?` : ''}`;
    });
}

/** Whether `value` is an `AbortSignal`, of this realm or another (a test runner's, a polyfill). */
export function isAbortSignal(value: unknown): value is AbortSignal {
  if (value instanceof AbortSignal) return true;
  return (
    typeof value === 'object' &&
    hasMethod(value, 'addEventListener') &&
    typeof (value as { aborted?: unknown }).aborted === 'boolean'
  );
}

/**
 * The options `changes` gives a value: one given as `undefined` is absent, as it is everywhere,
 * so the parent's value stands rather than the default's.
 */
export function givenOnly(changes: Partial<ClientOptions>): Partial<ClientOptions> {
  if (!isOptionsObject(changes)) {
    throw new PartnerError(
      `Invalid withOptions() argument: expected an object of PartnerClient options (got ${shownValue(changes)}).`,
    );
  }
  return Object.fromEntries(
    Object.entries(changes).filter(([, value]) => value !== undefined),
  ) as Partial<ClientOptions>;
}
