/**
 * Shorthands for the kit's rule sets: an optional field of a type, as a Laravel `FormRequest`
 * for an update declares it (`nullable` and its type).
 *
 * @module
 */

import type { Rule } from './laravel';

export const optionalText = (...more: Rule[]): Rule[] => ['nullable', 'string', ...more];
export const optionalInteger = (...more: Rule[]): Rule[] => ['nullable', 'integer', ...more];
export const optionalNumber = (...more: Rule[]): Rule[] => ['nullable', 'numeric', ...more];
export const optionalFlag: Rule[] = ['nullable', 'boolean'];
