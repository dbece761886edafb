/**
 * The promise every method that sends one call returns (every method but the waits, which send
 * many): `await` gives the parsed body; `.withResponse()` gives the body
 * and the raw `Response` (status, headers) for the callers who need them.
 */

/** The parsed body of a call together with the `Response` it came from (its body already read). */
export interface WithResponse<T> {
  /** The parsed, validated body. */
  data: T;
  /** The HTTP response: status and headers. Its body has been consumed by the SDK. */
  response: Response;
}

/**
 * A promise of a method's result that can also give the raw response. It is a native `Promise`
 * (so `await`, `Promise.all` and `instanceof Promise` work as for any promise) with
 * `withResponse()` added, the way ky's response promise carries `.json()`: awaiting a native
 * promise is cheaper than awaiting a promise-like object.
 *
 * @example
 * ```ts
 * const product = await client.products.retrieve('prd_1');
 * const { data, response } = await client.products.retrieve('prd_1').withResponse();
 * console.log(response.status, data.name);
 * ```
 */
export interface APIPromise<T> extends Promise<T> {
  /**
   * Resolves with the parsed body and the `Response` (for its status and headers).
   *
   * @example
   * ```ts
   * const { data, response } = await seller.refunds.list('tx_1').withResponse();
   * console.log(response.headers.get('date'), data.length);
   * ```
   */
  withResponse(): Promise<WithResponse<T>>;

  /** @internal Derives a promise of another shape from the same response (resources use it to reshape bodies). */
  _map<U>(transform: (data: T, response: Response) => U): APIPromise<U>;
}

const ignore = () => {};

/**
 * @internal Builds the `APIPromise` of a call from its promise of `{ data, response }`.
 *
 * Settles like a promise of the body. A caller who takes `withResponse()` or a derived promise
 * instead handles the failure there, so the body promise is then marked handled: an unawaited one
 * must not report an unhandled rejection of its own.
 */
export function apiPromise<T>(result: Promise<WithResponse<T>>): APIPromise<T> {
  const data = result.then((settled) => settled.data);
  return Object.assign(data, {
    withResponse(): Promise<WithResponse<T>> {
      data.catch(ignore);
      return result;
    },
    _map<U>(transform: (data: T, response: Response) => U): APIPromise<U> {
      data.catch(ignore);
      return apiPromise(
        result.then((settled) => ({
          data: transform(settled.data, settled.response),
          response: settled.response,
        })),
      );
    },
  });
}
