/**
 * What every command shares: the client built from the environment, the output mode, and the
 * exit codes.
 *
 * @module
 */

import { PartnerClient, PartnerError, type SellerClient } from 'partner-sdk';

/** Exit codes scripts can test (documented in `docs/bulk-and-cli.md`). */
export const EXIT = {
  /** Everything done. */
  ok: 0,
  /** The call failed, or some items of a bulk job failed. */
  failed: 1,
  /** Bad arguments, input or configuration: nothing was sent. */
  usage: 2,
  /** The journal is in use by another run (one writer per journal): nothing was sent. */
  busy: 3,
  /** Stopped by Ctrl-C (SIGINT) or SIGTERM; a journaled job resumes where it stopped. */
  interrupted: 130,
} as const;

/** A problem with the command line, its input or its configuration: exit code 2. */
export class UsageError extends Error {}

/** Global options of every command. */
export interface GlobalOptions {
  json?: boolean;
  sellerToken?: string;
}

/** The streams a command writes to (the process's, or a test's). */
export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

export class Context {
  readonly io: Io;
  readonly json: boolean;
  readonly #sellerToken: string | undefined;
  #client: PartnerClient | undefined;

  constructor(io: Io, options: GlobalOptions) {
    this.io = io;
    this.json = options.json === true;
    this.#sellerToken = options.sellerToken ?? (io.env.PARTNER_API_SELLER_TOKEN || undefined);
  }

  /** The root client, from the `PARTNER_API_*` environment variables. */
  get client(): PartnerClient {
    if (!this.#client) {
      try {
        this.#client = new PartnerClient({ logLevel: 'error' });
      } catch (error) {
        if (error instanceof PartnerError) throw new UsageError(error.message);
        throw error;
      }
    }
    return this.#client;
  }

  /** A seller client when a seller token is set, else the root client. */
  get caller(): PartnerClient | SellerClient {
    return this.#sellerToken ? this.client.forUser(this.#sellerToken) : this.client;
  }

  /** The seller client; a usage error without a seller token. */
  get seller(): SellerClient {
    if (!this.#sellerToken) {
      throw new UsageError(
        'this command acts for a seller: pass --seller-token or set PARTNER_API_SELLER_TOKEN',
      );
    }
    return this.client.forUser(this.#sellerToken);
  }

  /** Writes one line to stdout. */
  line(text = ''): void {
    this.io.stdout.write(`${text}\n`);
  }

  /** Writes a value: a JSON line with `--json`, else `human(value)`. */
  print<T>(value: T, human: (value: T) => string): void {
    this.line(this.json ? JSON.stringify(value) : human(value));
  }

  /** A note for people on stderr (never in `--json` output). */
  note(text: string): void {
    this.io.stderr.write(`${text}\n`);
  }
}
