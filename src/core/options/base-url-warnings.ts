/**
 * The warnings of a `baseUrl` that works but is likely a mistake, given once per client a partner
 * builds (the checks that refuse one are in resolve.ts).
 */

import type { ResolvedOptions } from './index';

/**
 * Warns about a `baseUrl` that works but is likely a mistake:
 * - a path that does not end in the version prefix `/api/v1` (spec conventions and §9: every path
 *   is relative to it), the usual cause of every call answering 404. Only a warning: a proxy or a
 *   gateway may mount the service elsewhere;
 * - plain `http:` to a host other than this machine: the client's credentials and tokens would
 *   cross the network unencrypted. Only a warning: a partner's own TLS-terminating sidecar or a
 *   test service on a private network is reached that way.
 */
export function warnAboutBaseUrl(options: ResolvedOptions): void {
  const { baseUrl, logger } = options;
  if (!baseUrl.endsWith('/api/v1')) {
    logger.warn(
      `baseUrl ${baseUrl} does not end in /api/v1 (the version prefix): calls may answer 404.`,
    );
  }
  const url = new URL(baseUrl);
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    logger.warn(
      `baseUrl ${baseUrl} is not https: the client's credentials and tokens will cross the network unencrypted.`,
    );
  }
}

/** A host name that names this machine: `localhost` (and its subdomains), 127.0.0.0/8 or `[::1]`. */
function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    /^127\.\d+\.\d+\.\d+$/.test(hostname)
  );
}
