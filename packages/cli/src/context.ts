/**
 * What every command shares: the client built from the environment or a profile, and the output
 * format; the exit codes and the CLI's own errors (`errors.ts`) are exported here too.
 *
 * @module
 */

import { readFile } from 'node:fs/promises';
import { PartnerClient, PartnerError, type SellerClient } from 'partner-sdk';
import { clientOptionsOf, type RunClientOptions, requestTimeoutOf } from './client-options';
import { UsageError } from './errors';
import {
  csvLine,
  type Format,
  formatOf,
  type Row,
  renderRows,
  renderValue,
  visible,
} from './format';
import { DEFAULT_PROFILE, type Profile, readProfile } from './profiles';

export { EXIT, ReceiverError, StreamedInputError, UsageError } from './errors';

/** Global options of every command. */
export interface GlobalOptions {
  json?: boolean;
  format?: string;
  sellerToken?: string;
  sellerTokenFile?: string;
  profile?: string;
  requestTimeout?: string;
  trace?: boolean;
  verbose?: boolean;
}

/** The streams a command writes to (the process's, or a test's). */
export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  env: NodeJS.ProcessEnv;
}

/** Where `login` took what it checks, for the messages of a refused or unreachable login. */
export interface LoginSources {
  /** The base URL, and where it came from (`--base-url`, `PARTNER_API_BASE_URL`, a prompt). */
  url: string;
  baseUrl: string;
  /** The credentials to check, each named with where it came from. */
  credentials: string;
}

export class Context {
  readonly io: Io;
  /**
   * Set by `login`: its credentials come from flags, prompts or stdin as well as variables, so its
   * failures name those, not the variables every other command reads.
   */
  loginSources: LoginSources | undefined;
  readonly format: Format;
  readonly #options: GlobalOptions;
  #profile: Profile | undefined;
  #profileError: unknown;
  #fileSellerToken: string | undefined;
  #client: PartnerClient | undefined;
  #csvHeader = false;

  constructor(io: Io, options: GlobalOptions) {
    this.io = io;
    this.#options = options;
    this.format = formatOf(options, io.stdout.isTTY === true);
  }

  /** Whether output is JSON lines (`--json`, `--format json`, or stdout not a terminal). */
  get json(): boolean {
    return this.format === 'json';
  }

  /** The profile's name: `--profile`, else `PARTNER_SDK_PROFILE`; undefined for the default. */
  get profileName(): string | undefined {
    return this.#options.profile ?? (this.io.env.PARTNER_SDK_PROFILE || undefined);
  }

  /**
   * Reads the profile named by `--profile` or `PARTNER_SDK_PROFILE`, else `default` if saved. A
   * missing or unreadable one fails when the client is first needed (`login` never needs it).
   */
  async loadProfile(): Promise<void> {
    try {
      this.#profile = await readProfile(this.io.env, this.profileName);
    } catch (error) {
      this.#profileError = error;
    }
  }

  /**
   * Reads `--seller-token-file`: the token kept out of the command line, so out of shell history
   * and `ps`. A file that cannot be read, or holds nothing, is a usage error naming the file, never
   * its contents; so is giving it beside `--seller-token`.
   */
  async loadSellerTokenFile(): Promise<void> {
    const file = this.#options.sellerTokenFile;
    if (file === undefined) return;
    if (this.#options.sellerToken !== undefined) {
      throw new UsageError('give --seller-token or --seller-token-file, not both');
    }
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException)?.code ?? 'unreadable';
      throw new UsageError(`cannot read --seller-token-file ${file}: ${code}`);
    }
    const token = text.trim();
    if (!token) throw new UsageError(`--seller-token-file ${file} holds no token`);
    this.#fileSellerToken = token;
  }

  /** The seller token given for this run: `--seller-token`, or read from `--seller-token-file`. */
  get sellerTokenFlag(): string | undefined {
    return this.#options.sellerToken ?? this.#fileSellerToken;
  }

  /** The base URL calls go to (for messages). */
  get baseUrl(): string | undefined {
    return this.#setting('PARTNER_API_BASE_URL', this.#profile?.baseUrl);
  }

  /** An explicit `--profile` wins over the environment; otherwise the environment wins. */
  #setting(variable: string, fromProfile: string | undefined): string | undefined {
    const fromEnv = this.io.env[variable] || undefined;
    return this.profileName ? (fromProfile ?? fromEnv) : (fromEnv ?? fromProfile);
  }

  /**
   * The profile when calls go to its own base URL, else none: its credentials never go to a base
   * URL a variable names instead (one a project's `.envrc` may set without you noticing).
   */
  get #profileForCalls(): Profile | undefined {
    const p = this.#profile;
    const same = (a: string | undefined) => a?.replace(/\/+$/, '');
    return p && same(p.baseUrl) === same(this.baseUrl) ? p : undefined;
  }

  /** A profile set aside for its base URL, with no credentials in variables to use instead. */
  #refuseOtherBaseUrl(): void {
    const env = this.io.env;
    if (!this.#profile || this.#profileForCalls) return;
    if (env.PARTNER_API_CLIENT_TOKEN || env.PARTNER_API_CLIENT_ID) return;
    const name = this.profileName ?? DEFAULT_PROFILE;
    throw new UsageError(
      `PARTNER_API_BASE_URL (${this.baseUrl}) is not the "${name}" profile's base URL, so its credentials are not sent there: unset it, or set that service's PARTNER_API_CLIENT_ID and PARTNER_API_CLIENT_SECRET too`,
    );
  }

  /** The root client, from the `PARTNER_API_*` environment variables or the profile. */
  get client(): PartnerClient {
    if (this.#profileError) throw this.#profileError;
    if (!this.#client) {
      this.#refuseOtherBaseUrl();
      const p = this.#profileForCalls;
      try {
        this.#client = new PartnerClient({
          ...this.clientOptions(),
          baseUrl: this.baseUrl,
          clientId: this.#setting('PARTNER_API_CLIENT_ID', p?.clientId),
          clientSecret: this.#setting('PARTNER_API_CLIENT_SECRET', p?.clientSecret),
          clientToken: this.#setting('PARTNER_API_CLIENT_TOKEN', p?.clientToken),
        });
      } catch (error) {
        if (error instanceof PartnerError) throw new UsageError(error.message);
        throw error;
      }
    }
    return this.#client;
  }

  /** `--request-timeout` in milliseconds, when given (a usage error when it is not a time). */
  get requestTimeoutMs(): number | undefined {
    return requestTimeoutOf(this.#options);
  }

  /** What every client of a run shares, the login's check included: its log and its time limit. */
  clientOptions(): RunClientOptions {
    return clientOptionsOf(this.io, this.#options);
  }

  get #sellerToken(): string | undefined {
    if (this.#profileError) throw this.#profileError;
    return (
      this.sellerTokenFlag ??
      this.#setting('PARTNER_API_SELLER_TOKEN', this.#profileForCalls?.sellerToken)
    );
  }

  /** A seller client when a seller token is set, else the root client. */
  get caller(): PartnerClient | SellerClient {
    const token = this.#sellerToken;
    return token ? this.client.forUser(token) : this.client;
  }

  /** The seller client; a usage error (before anything is sent) without a seller token. */
  get seller(): SellerClient {
    const token = this.#sellerToken;
    if (!token) {
      throw new UsageError(
        'this command acts for a seller: set PARTNER_API_SELLER_TOKEN, or pass --seller-token-file FILE or --seller-token TOKEN',
      );
    }
    return this.client.forUser(token);
  }

  /** Writes one line to stdout. */
  line(text = ''): void {
    this.io.stdout.write(`${text}\n`);
  }

  /** Writes text for people to stdout, the service's control characters shown escaped. */
  human(text: string): void {
    this.line(visible(text));
  }

  /**
   * `value` with the seller's token of this run shown as `[REDACTED]` wherever it appears: the
   * service repeats it (a profile's `public_token`), and stdout lands in CI logs and recordings.
   */
  #masked<T>(value: T): T {
    let token: string | undefined;
    try {
      token = this.#sellerToken;
    } catch {
      // No profile to read: no token of it to mask either.
    }
    if (!token) return value;
    const text = JSON.stringify(value);
    if (!text?.includes(token)) return value;
    return JSON.parse(text, (_key, item) =>
      typeof item === 'string' && item.includes(token)
        ? item.replaceAll(token, '[REDACTED]')
        : item,
    );
  }

  /** Writes one value in the output format; `human(value)` on a terminal's table format. */
  print<T extends object>(value: T, human: (value: T) => string): void {
    const shown = this.#masked(value);
    if (this.format === 'table') this.human(human(shown));
    else this.line(renderValue(this.format, shown));
  }

  /** Writes rows: a table of `columns` (noting the fields left out), JSON lines, or CSV. */
  rows(rows: Row[], columns: string[]): void {
    const { text, hidden } = renderRows(this.format, this.#masked(rows), columns);
    if (text) this.line(text);
    if (hidden.length > 0) {
      const more = hidden.length > 6 ? ` and ${hidden.length - 6} more` : '';
      this.note(
        `(also: ${hidden.slice(0, 6).join(', ')}${more}; --format json or csv shows every field)`,
      );
    }
  }

  /** One record of a CSV stream (bulk outcomes); the header line before the first. */
  csvRecord(record: Row): void {
    if (!this.#csvHeader) this.line(csvLine(Object.keys(record)));
    this.#csvHeader = true;
    this.line(csvLine(Object.values(this.#masked(record))));
  }

  /** A note for people on stderr (never in stdout, whatever the format). */
  note(text: string): void {
    this.io.stderr.write(`${visible(text)}\n`);
  }
}
