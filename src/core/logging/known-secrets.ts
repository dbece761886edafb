/**
 * The secret values the SDK masks in every text it emits (redact.ts): which it knows, and for how
 * long. A client's own credentials are kept while the client is reachable, a webhook verifier's
 * secrets while the verifier is, sellers' bearers while a call with them runs, and a bounded
 * number of the recently used besides.
 */

// Secrets seen by any client in this process. Those in use are counted and never forgotten
// meanwhile: a client's own credentials (its secret, its given or logged-in client token) while a
// client made with them is reachable, a webhook verifier's secrets while it is, a seller's bearer
// while a call with it runs. The others (sellers' bearers between calls, the secrets of clients
// and verifiers since collected) are kept least-recently-used first, each use counting, so a
// process that makes a client (or a verifier) per request or per seller stays bounded, and every
// text masked is scanned for a bounded set.
const inUseSecrets = new Map<string, number>();
const recentSecrets = new Set<string>();
const MAX_RECENT_SECRETS = 256;
// The spec sets credentials no minimum length; a single character would mask every one like it.
const MIN_SECRET_LENGTH = 2;
/** Every known secret, longest first (a secret inside another must not break its mask); rebuilt on change. */
let ordered: string[] | undefined;

/**
 * Remembers a secret value so that it is masked in any text the SDK emits from now on. `pin`
 * counts it in use until {@link unpinSecret}; otherwise it is one of the recently used tokens,
 * and registering it again counts as a use.
 */
export function registerSecret(value: string | undefined | null, pin = false): void {
  // Only text can be quoted in a message: anything else a caller passed is no secret to mask.
  if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) return;
  if (pin) {
    recentSecrets.delete(value);
    inUseSecrets.set(value, (inUseSecrets.get(value) ?? 0) + 1);
  } else if (inUseSecrets.has(value)) {
    return;
  } else if (recentSecrets.delete(value)) {
    recentSecrets.add(value);
    return;
  } else {
    // The least recently used goes: those in use are not among them.
    if (recentSecrets.size >= MAX_RECENT_SECRETS) {
      recentSecrets.delete(recentSecrets.values().next().value!);
    }
    recentSecrets.add(value);
  }
  ordered = undefined;
}

/** Registers `value` as in use until the returned release is called (a call's bearer). */
export function holdSecret(value: string): () => void {
  registerSecret(value, true);
  return () => unpinSecret(value);
}

/** One use of a secret ended (a replaced client token, a call done): unused, it joins the recent ones. */
export function unpinSecret(value: string | undefined): void {
  const uses = value === undefined ? undefined : inUseSecrets.get(value);
  if (uses === undefined) return;
  if (uses > 1) {
    inUseSecrets.set(value!, uses - 1);
    return;
  }
  inUseSecrets.delete(value!);
  registerSecret(value);
}

// A client's credentials are released when the object owning them is collected: that client is
// then gone, and no text it emits can quote them (another client made with the same ones pins them
// on its own). A runtime without FinalizationRegistry keeps them pinned for the process's life.
const releaseWhenCollected =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<Set<string>>((held) => held.forEach(unpinSecret))
    : undefined;

/** Secrets pinned on behalf of one owner (a client's options, its token manager, a webhook verifier). */
export interface OwnedSecrets {
  /** Pins `value` while the owner lives (once, however often it is given). */
  pin(value: string | undefined): void;
  /** Pins `next` in place of `previous`, which the owner no longer uses. */
  replace(previous: string | undefined, next: string): void;
}

/**
 * Secrets in use as long as `owner` is reachable: once it is collected each joins the recent ones,
 * so nothing a live client holds is ever forgotten, and nothing a dropped one held is kept for ever.
 */
export function ownedSecrets(owner: object): OwnedSecrets {
  const held = new Set<string>();
  releaseWhenCollected?.register(owner, held);
  const pin = (value: string | undefined) => {
    if (value === undefined || value.length < MIN_SECRET_LENGTH || held.has(value)) return;
    held.add(value);
    registerSecret(value, true);
  };
  return {
    pin,
    replace(previous, next) {
      if (previous === next) return;
      pin(next);
      if (previous !== undefined && held.delete(previous)) unpinSecret(previous);
    },
  };
}

/** Every secret known now, longest first. */
export function secretsLongestFirst(): string[] {
  ordered ??= [...inUseSecrets.keys(), ...recentSecrets].sort((a, b) => b.length - a.length);
  return ordered;
}
