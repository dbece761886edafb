/** The SDK's version, sent in the `User-Agent` header (a test keeps it equal to package.json's). */
export const VERSION = '0.1.0';

/**
 * The version of the published interface description the SDK follows (spec §9), also sent in the
 * `User-Agent` header, so the service's operators can tell which description a partner codes to.
 *
 * @example
 * ```ts
 * import { API_VERSION } from 'partner-sdk';
 * console.log(API_VERSION); // '1.0.2'
 * ```
 */
export const API_VERSION = '1.0.2';
