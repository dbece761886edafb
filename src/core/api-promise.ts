/**
 * The promise every method returns: `await` gives the parsed body; `.withResponse()` gives the body
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
 * A promise of a method's result that can also give the raw response.
 *
 * @example
 * ```ts
 * const product = await client.products.retrieve('prd_1');
 * const { data, response } = await client.products.retrieve('prd_1').withResponse();
 * console.log(response.status, data.name);
 * ```
 */
export class APIPromise<T> implements PromiseLike<T> {
  readonly #result: Promise<WithResponse<T>>;
  #data: Promise<T> | undefined;

  /** @internal Wraps a promise of `{ data, response }`; resources never build one by hand. */
  constructor(result: Promise<WithResponse<T>>) {
    this.#result = result;
  }

  /**
   * Resolves with the parsed body and the `Response` (for its status and headers).
   *
   * @example
   * ```ts
   * const { data, response } = await client.refunds.list('tx_1').withResponse();
   * console.log(response.headers.get('date'), data.length);
   * ```
   */
  withResponse(): Promise<WithResponse<T>> {
    return this.#result;
  }

  /** @internal Derives a promise of another shape from the same response (resources use it to reshape bodies). */
  _map<U>(transform: (data: T, response: Response) => U): APIPromise<U> {
    return new APIPromise(
      this.#result.then(({ data, response }) => ({ data: transform(data, response), response })),
    );
  }

  #body(): Promise<T> {
    this.#data ??= this.#result.then((result) => result.data);
    return this.#data;
  }

  /**
   * Standard promise `then`: resolves with the parsed body.
   *
   * @example
   * ```ts
   * client.products.retrieve('prd_1').then((product) => console.log(product.name));
   * ```
   */
  // biome-ignore lint/suspicious/noThenProperty: this class is a promise by design.
  then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#body().then(onfulfilled, onrejected);
  }

  /**
   * Standard promise `catch`.
   *
   * @example
   * ```ts
   * await client.products.retrieve('prd_1').catch(() => undefined);
   * ```
   */
  catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.#body().catch(onrejected);
  }

  /**
   * Standard promise `finally`.
   *
   * @example
   * ```ts
   * await client.products.retrieve('prd_1').finally(() => console.log('done'));
   * ```
   */
  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#body().finally(onfinally);
  }

  /** Shown by `Object.prototype.toString`. */
  get [Symbol.toStringTag](): string {
    return 'APIPromise';
  }
}
