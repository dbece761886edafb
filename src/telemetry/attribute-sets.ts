/**
 * The attribute sets a call records, made once per operation and per request shape and then shared
 * by every call of it: a span copies the attributes it starts with, and a metric keeps the set it
 * was first given as its key, so a set handed out here is never changed afterwards.
 */

import type { Attributes } from '@opentelemetry/api';

/** What every call of one operation records. */
export interface OperationSets {
  /** The call span's attributes at its start. */
  span: Attributes;
  /** The call-level duration's attributes when the call succeeded. */
  success: Attributes;
}

/** What every attempt of one method, server and path template records. */
export interface AttemptSets {
  /** The attempt span's name: method and template (the method alone without a template). */
  name: string;
  /** The attempt span's attributes at its start (before a resend count or a path). */
  span: Attributes;
  /** The per-attempt duration's attributes by answer status. */
  byStatus: Map<number, Attributes>;
}

// Operations and templates are the SDK's own, so these stay small; a bound keeps them so even for
// raw calls on paths of the caller's choosing.
const MAX_SETS = 256;

function remembered<T>(sets: Map<string, T>, key: string, make: () => T): T {
  let found = sets.get(key);
  if (found === undefined) {
    found = make();
    if (sets.size < MAX_SETS) sets.set(key, found);
  }
  return found;
}

/** A telemetry's attribute sets, by operation and by request shape. */
export class AttributeSets {
  readonly #operations = new Map<string, OperationSets>();
  readonly #attempts = new Map<string, AttemptSets>();

  operation(operation: string): OperationSets {
    return remembered(this.#operations, operation, () => ({
      span: { 'partner_sdk.operation': operation },
      success: { 'partner_sdk.operation': operation, 'partner_sdk.outcome': 'success' },
    }));
  }

  attempt(method: string, url: string, template: string | undefined): AttemptSets {
    const origin = url.slice(0, url.indexOf('/', url.indexOf('//') + 2) >>> 0);
    return remembered(this.#attempts, `${method} ${origin} ${template ?? ''}`, () => {
      const span: Attributes = { 'http.request.method': method, ...server(url) };
      if (template !== undefined) span['url.template'] = template;
      const name = template === undefined ? method : `${method} ${template}`;
      return { name, span, byStatus: new Map() };
    });
  }

  /** The per-attempt duration's attributes for an answer with `status` (no error). */
  answered(sets: AttemptSets, status: number): Attributes {
    let found = sets.byStatus.get(status);
    if (found === undefined) {
      found = { ...sets.span, 'http.response.status_code': status };
      if (sets.byStatus.size < MAX_SETS) sets.byStatus.set(status, found);
    }
    return found;
  }
}

/** Where a URL's requests go: `server.address` and `server.port` (the scheme's default when none). */
function server(url: string): Attributes {
  try {
    const { hostname, port, protocol } = new URL(url);
    const address = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
    return {
      'server.address': address,
      'server.port': Number(port || (protocol === 'http:' ? 80 : 443)),
    };
  } catch {
    return {};
  }
}
