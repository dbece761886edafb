import type { ResolvedAssumptions } from '../assumptions';
import type { PendingTelemetry } from '../core/call-telemetry';
import type { RequestOptions } from '../core/options';
import type { APIPromise } from '../core/transport/api-promise';
import type { CallResult, CallSpecInput, Schema } from '../core/transport/call-spec';

/** What a resource needs from its client: a way to send a described call. */
export interface Requester {
  /** Sends `spec` for the client (and seller) this resource belongs to. */
  call<S extends Schema | undefined>(
    spec: CallSpecInput<S>,
    options?: RequestOptions,
  ): APIPromise<CallResult<S>>;
  /** The client's assumptions where the spec shows no shape (its `assumptions` option resolved). */
  readonly assumptions: ResolvedAssumptions;
  /**
   * Warns through the client's logger, once per client for each message: for what the spec does
   * not forbid but is likely a mistake (sent all the same).
   */
  warnOnce(message: string): void;
  /** The client's telemetry now, for the waits and walks that span several calls. */
  telemetry(): PendingTelemetry;
}

/** Base of every namespace (`client.products`, `client.refunds`…): holds the client's requester. */
export abstract class APIResource {
  /** @internal */
  protected readonly _client: Requester;

  /** @internal Namespaces are created by the client; there is no need to build one by hand. */
  constructor(client: Requester) {
    this._client = client;
  }
}
