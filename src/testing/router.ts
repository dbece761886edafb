/**
 * Route table plumbing: what a route declares, what its handler receives, and path matching
 * (`/financial/refund/:hash/status`).
 *
 * @module
 */

import type { MockSeller, MockState } from './state';

/** The path segment that starts the API base: request paths are matched after it. */
export const API_PREFIX = '/api/v1';

/** What a route handler receives. */
export interface RouteContext {
  state: MockState;
  request: Request;
  url: URL;
  /** Decoded path parameters. */
  params: Record<string, string>;
  /** Parsed JSON body (undefined when none or not JSON). */
  body: unknown;
  /** Parsed multipart body, when the request was multipart. */
  form: FormData | undefined;
  /** Absolute API base URL as the caller reached it (ends in `/api/v1`); used for `Location`. */
  apiBase: string;
  /** The seller named by the bearer token, if any. */
  seller: MockSeller | undefined;
  /**
   * The user the call acts for: the bearer's seller; on a route declared public and called
   * without a bearer, the person seller.
   */
  accountCode: string;
}

/**
 * Which credentials a route needs: `none` (login), `client` (`X-Api-Client-Token`: the product
 * catalogue), `user` (client token and a seller's bearer: everything else, spec §4 and §5.5,
 * unless declared public with the seed's `publicRoutes`).
 */
export type RouteAuth = 'none' | 'client' | 'user';

/** One endpoint of the mock. */
export interface Route {
  method: string;
  pattern: string;
  auth: RouteAuth;
  handle(ctx: RouteContext): Response | Promise<Response>;
}

/** A route's name in `publicRoutes`: method and pattern, parameters as `{}` (`PUT /products/{}/offers/{}`). */
export function routeKey(route: Pick<Route, 'method' | 'pattern'>): string {
  return `${route.method} ${route.pattern.replace(/:[^/]+/g, '{}')}`;
}

/**
 * Reads a route named in `publicRoutes` (`'GET /financial/anticipation'`,
 * `'POST /financial/refund/{transaction_hash}'`, `:hash` also accepted) as a {@link routeKey}.
 */
export function routeKeyOf(name: string): string {
  const match = /^\s*([A-Za-z]+)\s+(\/\S*)\s*$/.exec(name);
  if (!match)
    throw new TypeError(`publicRoutes: expected 'METHOD /path', got ${JSON.stringify(name)}`);
  const path = match[2]!.replace(/\/+$/, '').replace(/\{[^/}]*\}|:[^/]+/g, '{}');
  return `${match[1]!.toUpperCase()} ${path}`;
}

/** Matches `path` against `pattern`; returns the decoded params or undefined. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith(':')) {
      if (g === '') return undefined;
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        return undefined;
      }
    } else if (w !== g) {
      return undefined;
    }
  }
  return params;
}

/** Laravel's verbs, in the order its router lists them in `Allow` (`Router::$verbs`). */
const VERBS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The methods a path answers: a GET route also answers HEAD, as every Laravel GET route does. */
function methodsOf(route: Route): string[] {
  return route.method === 'GET' ? ['GET', 'HEAD'] : [route.method];
}

/**
 * Finds the route for a request: the route, or the methods the path does answer when only the
 * method differs (Laravel's 405, or its `OPTIONS` answer), or `404`. `HEAD` finds the GET route.
 */
export function findRoute(
  routes: readonly Route[],
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | { allow: string[] } | 404 {
  const answered = new Set<string>();
  for (const route of routes) {
    const params = matchPath(route.pattern, path);
    if (!params) continue;
    if (methodsOf(route).includes(method)) return { route, params };
    for (const m of methodsOf(route)) answered.add(m);
  }
  return answered.size > 0 ? { allow: VERBS.filter((v) => answered.has(v)) } : 404;
}
