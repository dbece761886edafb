/**
 * The thin adapter between the stores and the partner's Redis client: the official `redis`
 * (node-redis) client or `ioredis`, told apart by their methods, so that neither is a dependency.
 * The stores send raw commands through it, each bounded by a time-out.
 *
 * @module
 */

import { isTimerDelay } from '../core/time/clock';
import { RedisStoreError } from './errors';

/**
 * A client of the official `redis` package (node-redis, v5 or v6): what `createClient()` returns,
 * connected. Only its `sendCommand` is used.
 */
export interface NodeRedisClient {
  /**
   * Sends one raw command.
   *
   * @example
   * ```ts
   * await redis.sendCommand(['GET', 'key']);
   * ```
   */
  sendCommand(args: string[]): Promise<unknown>;
}

/** A client of the `ioredis` package (v5, v6): a `new Redis(…)`. Only its `call` is used. */
export interface IoredisClient {
  /**
   * Sends one raw command.
   *
   * @example
   * ```ts
   * await redis.call('GET', 'key');
   * ```
   */
  call(command: string, ...args: string[]): Promise<unknown>;
}

/** A Redis connection the partner already has: a node-redis client or an ioredis one. */
export type RedisClient = NodeRedisClient | IoredisClient;

/** Options every Redis store takes. */
export interface RedisStoreOptions {
  /**
   * Put before every key the store writes, so that the SDK's keys never collide with the
   * application's. Braces are refused (they would change a Redis Cluster's slot). Default
   * `'partner-sdk:'`.
   */
  prefix?: string | undefined;
  /**
   * Milliseconds a Redis command may take before the store gives up on it and treats Redis as
   * unavailable (a stopped server otherwise queues commands until it comes back). Default 1 000.
   */
  commandTimeoutMs?: number | undefined;
}

/** Sends raw commands over either client library, each one bounded in time. @internal */
export interface Commands {
  /** Sends `args` and resolves to the reply; rejects with {@link RedisStoreError}. */
  send(args: string[]): Promise<unknown>;
  /** Runs a Lua script (EVALSHA, loading it with EVAL when the server does not know it). */
  eval(script: Script, keys: string[], args: string[]): Promise<unknown>;
}

/** A Lua script and its SHA-1, computed once. @internal */
export class Script {
  readonly source: string;
  #sha: Promise<string> | undefined;
  constructor(source: string) {
    this.source = source;
  }
  /** The hex SHA-1 that EVALSHA names the script by. */
  sha(): Promise<string> {
    this.#sha ??= crypto.subtle
      .digest('SHA-1', new TextEncoder().encode(this.source))
      .then((digest) =>
        Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join(''),
      );
    return this.#sha;
  }
}

/** Gives a lease back: deletes `KEYS[1]` only while it still names its owner, `ARGV[1]`. @internal */
export const RELEASE_LEASE = new Script(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`);

type Sender = (args: string[]) => Promise<unknown>;

function senderOf(client: unknown): Sender {
  const candidate = client as Partial<NodeRedisClient & IoredisClient> | null;
  // ioredis also has a `sendCommand`, taking its own Command objects: look for `call` first.
  if (typeof candidate?.call === 'function') {
    const ioredis = candidate as IoredisClient;
    return ([command, ...args]) => ioredis.call(command!, ...args);
  }
  if (typeof candidate?.sendCommand === 'function') {
    const nodeRedis = candidate as NodeRedisClient;
    keepErrorsHandled(nodeRedis);
    return (args) => nodeRedis.sendCommand(args);
  }
  throw new TypeError(
    'Expected a Redis client: one from the `redis` package (createClient) or an `ioredis` client.',
  );
}

/** What the stores need of an event emitter: node-redis clients are ones. */
interface ErrorEvents {
  on(event: 'error', listener: (error: unknown) => void): unknown;
  listenerCount(event: 'error'): number;
}

function ignoreError(): void {}

/**
 * Gives a node-redis client that has no `'error'` listener one that swallows the event. node-redis
 * emits `'error'` whenever its connection breaks, and an `'error'` event nobody listens to throws
 * (Node's rule for event emitters): the process would end the moment Redis went away, however
 * carefully the stores handle their own failures. A store's commands still fail, as
 * `RedisStoreError` within `commandTimeoutMs`, which is where an outage shows; a partner's own
 * listener, present or added later, still hears every event. (ioredis only prints an unheard
 * `'error'`, so its clients are left as they are.)
 */
function keepErrorsHandled(client: unknown): void {
  const events = client as Partial<ErrorEvents>;
  if (typeof events.on !== 'function' || typeof events.listenerCount !== 'function') return;
  if (events.listenerCount('error') > 0) return;
  events.on('error', ignoreError);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Runs `work` once the socket reads already due have run: setImmediate where the runtime has it. */
const afterPendingReads: (work: () => void) => void =
  typeof setImmediate === 'function' ? (work) => setImmediate(work) : (work) => setTimeout(work, 0);

/** Checks the options shared by every store and wraps the client. @internal */
export function connect(
  client: RedisClient,
  options: RedisStoreOptions,
): { commands: Commands; prefix: string } {
  const send = senderOf(client);
  const prefix = options.prefix ?? 'partner-sdk:';
  if (typeof prefix !== 'string') throw new TypeError('`prefix` must be a string.');
  // A Redis Cluster hashes a key by its first `{…}`: a brace in the prefix would send the keys
  // one script touches to different slots, which a standalone Redis never shows.
  if (/[{}]/.test(prefix)) {
    throw new TypeError(`\`prefix\` must not contain a brace (got ${JSON.stringify(prefix)}).`);
  }
  const timeoutMs = positiveMs('commandTimeoutMs', options.commandTimeoutMs ?? 1_000);

  const bounded = (args: string[]): Promise<unknown> => {
    const name = args[0] ?? '';
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      const fail = () =>
        reject(new RedisStoreError(`Redis did not answer ${name} within ${timeoutMs} ms`));
      // Node runs due timers before it reads sockets: when this process was busy past the limit,
      // an answer that came in time is still unread here. setImmediate runs after that read.
      timer = setTimeout(() => afterPendingReads(fail), timeoutMs);
      // The command's own socket keeps the process alive while it runs; this bound must not.
      (timer as { unref?: () => void }).unref?.();
    });
    const sent = Promise.resolve()
      .then(() => send(args))
      .catch((error: unknown) => {
        throw new RedisStoreError(`Redis ${name} failed: ${describe(error)}`, { cause: error });
      });
    return Promise.race([sent, late]).finally(() => clearTimeout(timer));
  };

  const commands: Commands = {
    send: bounded,
    async eval(script, keys, args) {
      const tail = [String(keys.length), ...keys, ...args];
      try {
        return await bounded(['EVALSHA', await script.sha(), ...tail]);
      } catch (error) {
        // A server restarted (or flushed) forgets its scripts: load it again by sending it whole.
        if (!/NOSCRIPT/.test(describe(error))) throw error;
        return bounded(['EVAL', script.source, ...tail]);
      }
    },
  };
  return { commands, prefix };
}

/** Checks a duration option. @internal */
export function positiveMs(name: string, value: number): number {
  if (!isTimerDelay(value)) {
    throw new RangeError(`\`${name}\` must be a positive number of milliseconds (got ${value}).`);
  }
  return value;
}
