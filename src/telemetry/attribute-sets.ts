/**
 * The attribute sets a call records, made once per operation and per request shape and then shared
 * by every call of it: a span copies the attributes it starts with, and a metric keeps the set it
 * was first given as its key, so a set handed out here is never changed afterwards. Finding a set
 * builds no string: the operation and the template are the SDK's own constants, and the server is
 * matched as a prefix of the URL.
 */

import type { Attributes } from '@opentelemetry/api';

/** What every call of one operation records. */
export interface OperationSets {
  /** The call span's attributes at its start. */
  span: Attributes;
  /** The call-level duration's attributes when the call succeeded. */
  success: Attributes;
  /** The call-level duration's attributes when the call failed, by error type. */
  byError: Map<string, Attributes>;
  /** The retry counter's attributes, by the error type of the attempt retried. */
  byRetry: Map<string, Attributes>;
}

/** What every attempt of one method, server and path template records. */
export interface AttemptSets {
  /** The method and origin (`scheme://host:port`) these sets are for. */
  method: string;
  origin: string;
  /** The attempt span's name: method and template (the method alone without a template). */
  name: string;
  /** The attempt span's attributes at its start (before a resend count or a path). */
  span: Attributes;
  /** The per-attempt duration's attributes by answer status, and by status and error type. */
  byStatus: Map<number, Attributes>;
  byError: Map<string, Attributes>;
}

// Operations and templates are the SDK's own, so these stay small; a bound keeps them so even for
// raw calls on paths of the caller's choosing.
const MAX_SETS = 256;

/**
 * `made`, kept in `sets` under `key` while there is room. Callers look a set up first and make one
 * only when it is missing, so that finding one allocates nothing (no object, no closure).
 */
function kept<K, T>(sets: Map<K, T>, key: K, made: T): T {
  if (sets.size < MAX_SETS) sets.set(key, made);
  return made;
}

/** A telemetry's attribute sets, by operation and by request shape. */
export class AttributeSets {
  readonly #operations = new Map<string, OperationSets>();
  /** By template (`''` for none): one entry per method and server, usually just one. */
  readonly #attempts = new Map<string, AttemptSets[]>();

  operation(operation: string): OperationSets {
    return (
      this.#operations.get(operation) ??
      kept(this.#operations, operation, {
        span: { 'partner_sdk.operation': operation },
        success: { 'partner_sdk.operation': operation, 'partner_sdk.outcome': 'success' },
        byError: new Map(),
        byRetry: new Map(),
      })
    );
  }

  /** The call-level duration's attributes for a call of `sets` that failed with `type`. */
  failed(sets: OperationSets, type: string): Attributes {
    return (
      sets.byError.get(type) ??
      kept(sets.byError, type, { ...sets.span, 'partner_sdk.outcome': 'error', 'error.type': type })
    );
  }

  /** The retry counter's attributes for a call of `sets` retrying after `type`. */
  retried(sets: OperationSets, type: string): Attributes {
    return sets.byRetry.get(type) ?? kept(sets.byRetry, type, { ...sets.span, 'error.type': type });
  }

  attempt(method: string, url: string, template: string | undefined): AttemptSets {
    let shapes = this.#attempts.get(template ?? '');
    if (shapes === undefined) {
      shapes = [];
      if (this.#attempts.size < MAX_SETS) this.#attempts.set(template ?? '', shapes);
    }
    for (const sets of shapes) if (sets.method === method && isUnder(url, sets.origin)) return sets;
    const sets = attemptSets(method, url, template);
    if (shapes.length < 8) shapes.push(sets);
    return sets;
  }

  /** The per-attempt duration's attributes for an answer with `status` (no error). */
  answered(sets: AttemptSets, status: number): Attributes {
    return (
      sets.byStatus.get(status) ??
      kept(sets.byStatus, status, { ...sets.span, 'http.response.status_code': status })
    );
  }

  /** The per-attempt duration's attributes for a failure of `type` (with `status`, if any). */
  failedAttempt(sets: AttemptSets, status: number | undefined, type: string): Attributes {
    const key = `${status ?? ''} ${type}`;
    const base = status === undefined ? sets.span : this.answered(sets, status);
    return sets.byError.get(key) ?? kept(sets.byError, key, { ...base, 'error.type': type });
  }
}

/** Whether `url` is on `origin` (and not on a longer host or port that starts the same). */
function isUnder(url: string, origin: string): boolean {
  return url.startsWith(origin) && (url.length === origin.length || url[origin.length] === '/');
}

function attemptSets(method: string, url: string, template: string | undefined): AttemptSets {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  const origin = slash === -1 ? url : url.slice(0, slash);
  const span: Attributes = { 'http.request.method': method, ...server(url) };
  if (template !== undefined) span['url.template'] = template;
  const name = template === undefined ? method : `${method} ${template}`;
  return { method, origin, name, span, byStatus: new Map(), byError: new Map() };
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
