/**
 * The client token: where it comes from and when it is renewed.
 *
 * - A token handed in as a string is used as it is and never "refreshed" on its own.
 * - A token function is asked before every request (it owns its caching).
 * - With credentials, the SDK logs in lazily on first need. Login is single-flight: any number of
 *   concurrent first calls wait for one `POST /auth`. A 401 on a token the SDK can renew (a token
 *   with credentials behind it, or a function that now returns another value) renews it once,
 *   again single-flight, and the caller replays once. A token refused on a call without a seller's
 *   token is not sent again: a call starting while its renewal runs waits for it, and one after a
 *   renewal that failed logs in.
 * - Only when the client token may be at fault: once a fresh token was refused together with a
 *   seller's bearer, that bearer is the one at fault, and its 401s log in no more for a minute (or
 *   until a call with it succeeds), so a bad seller token costs one login a minute, not one per
 *   call. Not for good: that fresh token may have been refused for the client's own sake (an
 *   outage), and a service whose only seller was held at fault would never log in again.
 * - With a `tokenStore` too, that login goes through the store, so that every process sharing it
 *   logs in once (see token-store.ts); a store that fails falls back to a local login.
 */

import { type OwnedSecrets, ownedSecrets, registerSecret } from '../logging/known-secrets';
import type { TokenSource } from '../options';
import { heldLogin } from '../retry/classify';
import type { ClientTokenStore } from './token-store';

/** Characters an HTTP header value cannot carry: a token with them would fail inside fetch, whose error quotes it. */
export const NOT_IN_HEADER = /[\0\r\n]|[^\0-\xFF]/;

/** {@link NOT_IN_HEADER} in words, for the messages refusing such a token (never quoting it). */
export const NOT_IN_HEADER_NAMED =
  'a line break or NUL, or a character beyond Latin-1, which no HTTP header can carry';

/**
 * A token given with its scheme (`Bearer …`), as it is often copied from a header: the SDK writes
 * the header itself, so the scheme would be sent twice and the service would refuse the token.
 */
export const WITH_SCHEME = /^bearer\s/i;

/** {@link WITH_SCHEME} in words, for the messages refusing such a token (never quoting it). */
export const WITH_SCHEME_NAMED =
  'starts with "Bearer ": give the token alone, the SDK writes the header';

/**
 * What keeps a token the partner gives (a client token, a seller's) out of its header, in words
 * that never quote it, or `undefined` when it can be sent.
 */
export function tokenIssue(token: string): string | undefined {
  if (NOT_IN_HEADER.test(token)) return `contains ${NOT_IN_HEADER_NAMED}`;
  return WITH_SCHEME.test(token) ? WITH_SCHEME_NAMED : undefined;
}

/** The store that shares logins with other processes, `key` naming this client's token in it. */
interface SharedLogins {
  store: ClientTokenStore;
  key: string;
  warn: (message: string) => void;
}

/** What a client whose token store failed or stalled does, as its warning says. */
const LOCAL = 'logging in from this process';

/** What a token store that has not answered in time is taken as. */
const STALLED = Symbol('stalled');

/** How many refused bearers are remembered (the oldest is forgotten first). */
const MAX_REFUSED_BEARERS = 1024;

/** How long a bearer held at fault renews nothing; after that its 401 may again be the client token's. */
const REFUSED_BEARER_MS = 60_000;

/** Performs the login; supplied by the transport so this module knows nothing of HTTP. */
export type LoginFunction = (clientId: string, clientSecret: string) => Promise<string>;

/** Resolves a token source (string or function) to a string, remembering it as a secret. */
export async function resolveToken(source: TokenSource): Promise<string> {
  const token = typeof source === 'function' ? await source() : source;
  if (typeof token !== 'string' || token === '') {
    throw new TypeError('A token function returned no token (expected a non-empty string).');
  }
  registerSecret(token);
  const issue = tokenIssue(token);
  if (issue) throw new TypeError(`A token ${issue}.`);
  return token;
}

/** A token source that is a usable string, remembered as a secret; `undefined` when it must be resolved. */
export function knownToken(source: TokenSource | undefined): string | undefined {
  if (typeof source !== 'string' || source === '') return undefined;
  registerSecret(source);
  return source;
}

/** Holds the client token of one client and of every client derived from it (`withOptions`, `forUser`). */
export class ClientTokenManager {
  readonly #given: TokenSource | undefined;
  readonly #credentials: { id: string; secret: string } | undefined;
  readonly #login: LoginFunction;
  readonly #store: (SharedLogins & { waitMs: number }) | undefined;
  /** The token obtained by the last login; once set it replaces the given one. */
  #loggedIn: string | undefined;
  /** The token in use that the service refused, until a login replaces it: never sent again. */
  #refused: string | undefined;
  #inflight: Promise<string> | undefined;
  /** The last value of a token function, pinned as a secret until it changes or this is collected. */
  #lastGiven: string | undefined;
  /** Bearers refused even with a fresh client token, and when, oldest first (bounded). */
  readonly #refusedBearers = new Map<string, number>();
  /** A failed login's error and until when its `Retry-After` asks to wait before the next one. */
  #loginHeldBack: { until: number; error: unknown } | undefined;
  /** The time now, on the client's clock (the one its waits run on). */
  readonly #now: () => number;
  /** The client tokens in use (the last login's, a function's latest), masked while this lives. */
  readonly #inUse: OwnedSecrets;

  constructor(options: {
    clientToken: TokenSource | undefined;
    clientId: string | undefined;
    clientSecret: string | undefined;
    login: LoginFunction;
    /** Shares logins with other processes; `key` names this client's token in it. */
    shared?: SharedLogins | undefined;
    /** The client's per-attempt timeout: how long the store may take before this process logs in itself. */
    timeout: number;
    /** The time now, on the client's clock. */
    now?: (() => number) | undefined;
  }) {
    this.#given = options.clientToken;
    this.#credentials =
      options.clientId !== undefined && options.clientSecret !== undefined
        ? { id: options.clientId, secret: options.clientSecret }
        : undefined;
    this.#login = options.login;
    this.#store = options.shared && { ...options.shared, waitMs: options.timeout };
    this.#inUse = ownedSecrets(this);
    this.#now = options.now ?? Date.now;
  }

  /**
   * The token to send now when it is known without waiting (the last login's, or a given string),
   * else `undefined`: then {@link current} resolves it. Saves every call a few promise turns.
   */
  known(): string | undefined {
    const token = this.#loggedIn ?? knownToken(this.#given);
    return token === this.#refused ? undefined : token;
  }

  /**
   * The token to send now: the last login's, else the given one, else a (single-flight) login,
   * which is also what a token the service refused waits for.
   */
  async current(): Promise<string> {
    const held = this.#loggedIn ?? this.#given;
    if (held === undefined || held === this.#refused) return this.#loginOnce(this.#refused);
    return held === this.#loggedIn ? held : this.#fromGiven();
  }

  /** The given token, a function's latest value pinned among the known secrets while in use. */
  async #fromGiven(): Promise<string> {
    const token = await resolveToken(this.#given!);
    if (typeof this.#given === 'function' && token !== this.#lastGiven) {
      this.#inUse.replace(this.#lastGiven, token);
      this.#lastGiven = token;
    }
    return token;
  }

  /**
   * Called after the service refused `rejected` with a 401. Returns the token to replay with, or
   * `undefined` when there is nothing new to try (the caller then surfaces the 401). `alone`: the
   * call carried no seller's token, so the client token is the one refused; with a seller's it may
   * be the seller's, and the other calls go on sending the client token while it is renewed.
   */
  async renew(rejected: string, alone: boolean): Promise<string | undefined> {
    if (this.#credentials) {
      const held = this.#loggedIn ?? knownToken(this.#given);
      // Another call already renewed it while this one was in flight: use that, do not log in again.
      if (held !== undefined && held !== rejected && held !== this.#refused) return held;
      if (held === rejected && alone) this.#refused = rejected;
      return this.#loginOnce(rejected);
    }
    if (typeof this.#given === 'function') {
      const fresh = await this.#fromGiven();
      return fresh === rejected ? undefined : fresh;
    }
    return undefined;
  }

  /**
   * Whether `bearer` was refused even with a fresh client token within the last minute (on the
   * client's clock): its 401s then renew nothing.
   */
  isRefusedBearer(bearer: string): boolean {
    const since = this.#refusedBearers.get(bearer);
    return since !== undefined && this.#now() - since < REFUSED_BEARER_MS;
  }

  /** Records that `bearer` was refused even with a fresh client token, now. */
  refuseBearer(bearer: string): void {
    // Set anew, it becomes the newest.
    this.#refusedBearers.delete(bearer);
    if (this.#refusedBearers.size >= MAX_REFUSED_BEARERS) {
      // Full, so there is an oldest.
      this.#refusedBearers.delete(this.#refusedBearers.keys().next().value!);
    }
    this.#refusedBearers.set(bearer, this.#now());
  }

  /** A call with `bearer` succeeded: its next 401 may again be the client token's fault. */
  acquit(bearer: string): void {
    this.#refusedBearers.delete(bearer);
  }

  #loginOnce(refused?: string): Promise<string> {
    if (this.#inflight) return this.#inflight;
    // Reached only with credentials: `resolveOptions` refuses a client with neither them nor a
    // client token, and `current()` and `renew()` come here only without a given token or with them.
    const { id, secret } = this.#credentials!;
    const login = () => this.#logIn(id, secret);
    const attempt = (this.#store ? this.#sharedLogin(login, refused) : login()).then((token) => {
      // The client's own token stays masked as long as it is in use, however many others come.
      registerSecret(token);
      this.#inUse.replace(this.#loggedIn, token);
      this.#loggedIn = token;
      this.#refused = undefined;
      return token;
    });
    this.#inflight = attempt;
    // Only this attempt can be in flight until it settles: a login meanwhile joins it.
    const clear = () => {
      this.#inflight = undefined;
    };
    attempt.then(clear, clear);
    return attempt;
  }

  /**
   * The login itself (`POST /auth`), unless the last one was answered with a `Retry-After` longer
   * than a call waits (past 60 s, or past the login's `totalTimeout`) that has not passed: then it
   * fails as that one did, rather than log in before the service allows, once per call of a busy
   * service. A token store is still asked meanwhile: another process may have logged in.
   */
  async #logIn(id: string, secret: string): Promise<string> {
    const held = this.#loginHeldBack;
    if (held && this.#now() < held.until) throw held.error;
    try {
      return await this.#login(id, secret);
    } catch (error) {
      const waitMs = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs;
      if (typeof waitMs === 'number' && waitMs > 0) {
        const until = this.#now() + waitMs;
        this.#loginHeldBack = { until, error };
        heldLogin(error, () => until - this.#now());
      }
      throw error;
    }
  }

  /**
   * The store's token, or one login for every process sharing it. A store that fails, or has not
   * answered within the client's `timeout` (a custom store stuck on its backend), means a local
   * login: one login per process whatever the store does later, and a login the store already
   * started is waited for rather than repeated.
   */
  async #sharedLogin(login: () => Promise<string>, refused: string | undefined): Promise<string> {
    const { store, key, warn, waitMs } = this.#store!;
    let started: Promise<string> | undefined;
    let loginFailed = false;
    const once = () =>
      (started ??= login().catch((error: unknown) => {
        loginFailed = true;
        throw error;
      }));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stall = new Promise<typeof STALLED>((resolve) => {
      timer = setTimeout(() => resolve(STALLED), waitMs);
      // A call waiting for this login keeps the process alive by its own bound; a login every
      // waiting call gave up on (aborted, out of time) must not keep a finished script running.
      (timer as { unref?: () => void }).unref?.();
    });
    try {
      const answer = await Promise.race([store.obtain({ key, login: once, refused, warn }), stall]);
      if (answer === STALLED) {
        if (!started) warn(`client token store did not answer within ${waitMs} ms; ${LOCAL}`);
        return await once();
      }
      // A token no header can carry is as unusable as none: the login's own answer is checked
      // where it is read (login.ts), the store's here.
      const usable = typeof answer === 'string' && answer !== '' && !NOT_IN_HEADER.test(answer);
      if (usable && answer !== refused) return answer;
      throw new TypeError('it returned no usable token');
    } catch (error) {
      if (loginFailed) throw error;
      if (started) return await started;
      warn(`client token store failed (${String(error)}); ${LOCAL}`);
      return await once();
    } finally {
      clearTimeout(timer);
    }
  }
}
