/**
 * partner-sdk: the typed client for the Partner Integration API.
 *
 * @packageDocumentation
 */

export * from './core/errors';
