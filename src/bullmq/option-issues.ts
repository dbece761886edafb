/**
 * What is wrong with one helper's options, collected and thrown once, each issue naming its
 * option and bound. A refused value is quoted only when it is a number: a header or a batch id
 * may carry what should never reach a log.
 *
 * @module
 */

import { RequestValidationError, type ValidationIssue } from '../core/errors';

/** Collects what is wrong with one helper's options, and throws once, naming each. */
export class Issues {
  readonly #where: string;
  readonly #found: ValidationIssue[] = [];

  constructor(where: string) {
    this.#where = where;
  }

  /** Records `path` as refused unless `ok`, saying what it expects and what it got. */
  need(ok: boolean, path: PropertyKey[], wanted: string, value?: unknown): void {
    if (!ok) this.add(path, `expected ${wanted} (got ${kindOf(value)})`);
  }

  add(path: PropertyKey[], message: string): void {
    this.#found.push({ path, message, code: 'invalid_value' });
  }

  /** Throws the issues found, if any. */
  check(): void {
    if (this.#found.length > 0) {
      throw new RequestValidationError(`Invalid ${this.#where} options`, this.#found);
    }
  }
}

/** What a refused value was: a number as itself, anything else by its kind only. */
function kindOf(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A plain object (not `null`, not an array). */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A whole number from `min` to `max`. */
export const whole = (value: unknown, min: number, max: number): boolean =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

/** Whether `value` has a method `method`. */
export const has = (value: unknown, method: string): boolean =>
  typeof (value as Record<string, unknown> | null | undefined)?.[method] === 'function';
