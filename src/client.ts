import { publicTokenIssue } from './core/auth/credentials';
import { RequestValidationError } from './core/errors';
import { registerSecret } from './core/logging/known-secrets';
import type { ClientOptions, RequestOptions, ResolvedOptions, TokenSource } from './core/options';
import { warnAboutBaseUrl } from './core/options/base-url-warnings';
import { givenOnly } from './core/options/given';
import { resolveOptions } from './core/options/resolve';
import { type ClientSummary, clientSummary, INSPECT, inspectedClient } from './core/options/shown';
import type { ReplayPolicy } from './core/retry/policy';
import type { APIPromise } from './core/transport/api-promise';
import type { CallContext, CallResult, HttpMethod, Schema } from './core/transport/call-spec';
import { Transport } from './core/transport/engine';
import { checkRawRequest } from './core/transport/raw-request';
import { Anticipations } from './resources/anticipations';
import { BankAccounts } from './resources/bank-accounts';
import { FeeTiers } from './resources/fee-tiers';
import { Offers } from './resources/offers';
import { Products } from './resources/products';
import { Refunds } from './resources/refunds';
import { Requester } from './resources/resource';
import { Statements } from './resources/statements';
import { Users } from './resources/users';

/** A call through the {@link PartnerClient.request} escape hatch, for operations the SDK does not wrap yet. */
export interface RawRequest<S extends Schema | undefined = undefined> {
  /** HTTP method. */
  method: HttpMethod;
  /** Path under `baseUrl`, starting with `/`, without `.` or `..` segments (encode any parameter yourself with `encodeURIComponent`). */
  path: string;
  /** Query parameters; `undefined` values are left out, a boolean is sent as `1`/`0`. */
  query?: Record<string, string | number | boolean | undefined>;
  /** JSON body (`NaN`, `Infinity`, an invalid `Date`, a bigint or a lone surrogate in it is refused: JSON would not carry it as given). */
  body?: unknown;
  /** Multipart body (in memory, so a retry resends the same bytes). */
  form?: FormData;
  /** zod schema to validate and type the response (classic `zod` or `zod/mini`). */
  schema?: S;
  /** Whether a failed attempt may be repeated; default `'always'` for GET, PUT and DELETE, `'never'` for POST and PATCH. */
  replay?: ReplayPolicy;
}

/**
 * The transports that clients built by `withOptions` (and `clientOver`) share, keyed by the options
 * object handed to their constructor: the private way for such a client to take its parent's
 * tokens while `new PartnerClient(options)` stays the one public signature. Nothing outside this
 * module can add to it.
 */
const sharedTransports = new WeakMap<ClientOptions, Transport>();

/**
 * A client over a transport built elsewhere, with `options` as `withOptions` will merge them.
 *
 * @internal Tests use it to give the transport a virtual clock; not exported from the package.
 */
export function clientOver(transport: Transport, options: ClientOptions = {}): PartnerClient {
  const own = { ...options };
  sharedTransports.set(own, transport);
  return new PartnerClient(own);
}

/**
 * The options `client` runs on, its own over the defaults: a job run on a client (bulk, BullMQ)
 * records where its calls do (`telemetry: false` or its own providers hold for the whole job) and
 * reads the service as they do (`assumptions`).
 *
 * @internal Read by `partner-sdk/bulk` and `partner-sdk/bullmq`; not exported from the package.
 * @example
 * ```ts
 * optionsOf(new PartnerClient({ telemetry: false })).telemetry; // false
 * ```
 */
export function optionsOf(client: PartnerClient | SellerClient): ResolvedOptions {
  return (client as unknown as { _transport: Transport })._transport.options;
}

/** The namespaces both the root client and a seller client have. */
abstract class BaseClient {
  /** Bank accounts (spec §4.5). */
  readonly bankAccounts: BankAccounts;
  /** Products: read and list (spec §4.9, §4.10). */
  readonly products: Products;
  /** Offers of products (spec §4.6). */
  readonly offers: Offers;
  /** Refunds (spec §4.2, §4.3). */
  readonly refunds: Refunds;
  /** Financial statement exports (spec §4.4). */
  readonly statements: Statements;
  /** Balance anticipations (spec §4.7, §4.8). */
  readonly anticipations: Anticipations;
  /** Fee-tier history (spec §4.11). */
  readonly feeTiers: FeeTiers;

  /** @internal */
  protected readonly _transport: Transport;
  /** @internal */
  protected readonly _context: CallContext;

  /** @internal */
  constructor(transport: Transport, context: CallContext) {
    this._transport = transport;
    this._context = context;
    const client = new Requester(transport, context);
    this.bankAccounts = new BankAccounts(client);
    this.products = new Products(client);
    this.offers = new Offers(client);
    this.refunds = new Refunds(client);
    this.statements = new Statements(client);
    this.anticipations = new Anticipations(client);
    this.feeTiers = new FeeTiers(client);
  }

  /**
   * What `JSON.stringify` writes for the client: its base URL and client id, never a credential.
   *
   * @example
   * ```ts
   * client.toJSON(); // { baseUrl: 'https://partner.example.com/api/v1', clientId: 'my-client-id' }
   * JSON.stringify({ client }); // the same under "client": no secret, no token
   * ```
   */
  toJSON(): ClientSummary {
    return clientSummary(this._transport.options);
  }

  /** @internal What `console.log(client)` and `util.inspect` show: its class and `toJSON()`. */
  [INSPECT](_depth: number, options: unknown, inspect: unknown): string {
    return inspectedClient(this.constructor.name, this.toJSON(), options, inspect);
  }

  /**
   * Calls any endpoint of the service, for the operations spec §4.12 names without their shapes.
   * Credentials, retries, time-outs and errors work as for every other method.
   *
   * @example
   * ```ts
   * import * as z from 'zod/mini';
   * // Fee-tier reading: spec §4.12 names it without its path or shape (the path here is a guess).
   * // Seller-scoped data goes through forUser, as every call but the login and the product catalogue.
   * const seller = client.forUser(publicToken);
   * const tiers = await seller.request({
   *   method: 'GET',
   *   path: '/users/fee-tiers',
   *   schema: z.looseObject({ data: z.array(z.unknown()) }),
   * });
   * ```
   */
  request<S extends Schema | undefined = undefined>(
    request: RawRequest<S>,
    options?: RequestOptions,
  ): APIPromise<CallResult<S>> {
    // Built inside the call, so that a bad path rejects the promise (nothing sent) like any bad input.
    return this._transport.call(
      () => {
        const given = checkRawRequest(request);
        return {
          method: given.method,
          path: given.path,
          query: given.query,
          json: given.body,
          form: given.form,
          schema: given.schema,
          callerSchema: true,
          replay: given.replay,
        };
      },
      this._context,
      options,
    ) as APIPromise<CallResult<S>>;
  }
}

/**
 * The client for the Partner Integration API. Authenticates with the client token (logging in with
 * `clientId`/`clientSecret` on first need), retries what is safe to retry, and turns every failure
 * into a typed error. `forUser(publicToken)` gives a client that acts for one seller.
 *
 * @example
 * ```ts
 * import { PartnerClient } from 'partner-sdk';
 *
 * const client = new PartnerClient({
 *   baseUrl: 'https://partner.example.com/api/v1',
 *   clientId: process.env.PARTNER_API_CLIENT_ID,
 *   clientSecret: process.env.PARTNER_API_CLIENT_SECRET,
 * });
 * const page = await client.products.list({ per_page: 50 });
 * const seller = client.forUser(publicToken);
 * await seller.refunds.request('tx_123');
 * ```
 */
export class PartnerClient extends BaseClient {
  readonly #options: ClientOptions;

  /**
   * Checks the options (throwing a `PartnerError` that names a missing or malformed one) and
   * prepares the client; nothing is sent until the first call.
   *
   * @example
   * ```ts
   * const client = new PartnerClient({ baseUrl: 'https://partner.example.com/api/v1', clientToken: 'tok' });
   * ```
   */
  constructor(options: ClientOptions = {}) {
    const shared = sharedTransports.get(options);
    super(shared ?? new Transport(resolveOptions(options)), {});
    this.#options = options;
    // Once per client a partner builds; a withOptions copy warns only for a baseUrl of its own.
    if (!shared) warnAboutBaseUrl(this._transport.options);
  }

  /**
   * A client acting for one seller: every call also sends `Authorization: Bearer <publicToken>`.
   * Shares this client's token and options. It has `users` too (the profile update requires it).
   *
   * @param publicToken The seller's `public_token`, or a function (possibly async) returning it.
   * @throws {RequestValidationError} the token is empty or not a string (nor a function), starts
   *   with a scheme (`Bearer …`: give the token alone), or holds a character a header cannot carry.
   * @example
   * ```ts
   * const seller = client.forUser(user.public_token);
   * await seller.users.update({ name: 'Ana Souza', address, cpf: '123.456.789-09', birth: '1990-04-01' });
   * ```
   */
  forUser(publicToken: TokenSource): SellerClient {
    const issue = publicTokenIssue(publicToken);
    if (issue) throw new RequestValidationError('Invalid forUser() argument', [issue]);
    // Masked from now on, not only once a call is made with it: the application's own errors and
    // log lines may quote it before then.
    if (typeof publicToken === 'string') registerSecret(publicToken);
    return new SellerClient(this._transport, { bearer: publicToken });
  }

  /**
   * A client with some options changed (time-outs, retries, logging…), sharing this client's
   * client token and login, so no second login happens. An option given as `undefined` is not
   * changed: it keeps this client's value.
   *
   * @throws {PartnerError} a changed option out of its range, as the constructor throws.
   * @example
   * ```ts
   * const fast = client.withOptions({ timeout: 5_000, maxRetries: 0 });
   * await fast.products.retrieve('prd_1');
   * ```
   */
  withOptions(changes: Partial<ClientOptions>): PartnerClient {
    const options = givenOnly(changes);
    const current = this._transport.options;
    // New assumptions merge over the parent's; the child keeps the result, so its own children
    // inherit it whole.
    const resolved = resolveOptions(
      { ...this.#options, ...options },
      options.assumptions === undefined ? undefined : current.assumptions,
    );
    const merged = { ...this.#options, ...options, assumptions: resolved.assumptions };
    const sameIdentity = IDENTITY_OPTIONS.every((name) => resolved[name] === current[name]);
    if (options.baseUrl !== undefined) warnAboutBaseUrl(resolved);
    return clientOver(
      new Transport(resolved, sameIdentity ? this._transport.tokens : undefined),
      merged,
    );
  }
}

/** The options that say whose client token a client uses: a child that keeps them shares its parent's. */
const IDENTITY_OPTIONS = ['baseUrl', 'clientId', 'clientSecret', 'clientToken'] as const;

/**
 * A client acting for one seller (from {@link PartnerClient.forUser}): the root client's
 * namespaces plus `users`, every call carrying the seller's bearer token.
 *
 * @example
 * ```ts
 * const seller = client.forUser(publicToken);
 * const result = await seller.refunds.request('tx_123');
 * ```
 */
export class SellerClient extends BaseClient {
  /** The seller's profile (spec §4.1). */
  readonly users: Users;

  /** @internal Built by `PartnerClient.forUser`. */
  constructor(transport: Transport, context: CallContext) {
    super(transport, context);
    this.users = new Users(new Requester(transport, context));
  }
}
