/**
 * Pins the public types as a partner sees them. Each assertion is a compile-time check: vitest's
 * typecheck (`npm run test:types`) reports them as tests, and `npm run typecheck` fails on them too.
 */

import {
  type APIError,
  type APIPromise,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  type Page,
  type PagePromise,
  PartnerClient,
  PartnerError,
  PermissionDeniedError,
  type Product,
  RateLimitError,
  type Refund,
  type RefundRequestResult,
  type RefundStatus,
  UnprocessableEntityError,
  type WithResponse,
} from 'partner-sdk';
import { describe, expectTypeOf, test } from 'vitest';

const client = new PartnerClient({ baseUrl: 'https://partner.example.com/api/v1' });
const seller = client.forUser('public-token');

describe('RefundRequestResult', () => {
  test('narrows on kind', () => {
    expectTypeOf<RefundRequestResult['kind']>().toEqualTypeOf<'accepted' | 'existing'>();
    const result = {} as RefundRequestResult;
    if (result.kind === 'accepted') {
      expectTypeOf(result.transactionHash).toEqualTypeOf<string>();
      expectTypeOf(result.statusUrl).toEqualTypeOf<string | undefined>();
      expectTypeOf(result).not.toHaveProperty('refund');
    } else {
      expectTypeOf(result.kind).toEqualTypeOf<'existing'>();
      expectTypeOf(result.refund).toEqualTypeOf<Refund>();
      expectTypeOf(result).not.toHaveProperty('statusUrl');
    }
  });

  test('is what refunds.request resolves to', () => {
    expectTypeOf(seller.refunds.request).returns.toEqualTypeOf<APIPromise<RefundRequestResult>>();
    expectTypeOf(seller.refunds.request).returns.resolves.toEqualTypeOf<RefundRequestResult>();
  });
});

describe('PagePromise', () => {
  test('is what list methods return', () => {
    expectTypeOf(client.products.list).returns.toEqualTypeOf<PagePromise<Product>>();
  });

  test('awaits to the first Page', () => {
    expectTypeOf<Awaited<PagePromise<Product>>>().toEqualTypeOf<Page<Product>>();
    expectTypeOf<Page<Product>['data']>().toEqualTypeOf<Product[]>();
    expectTypeOf<Page<Product>['pagination']['last_page']>().toEqualTypeOf<number>();
    expectTypeOf<Page<Product>['hasNextPage']>().returns.toEqualTypeOf<boolean>();
    expectTypeOf<Page<Product>['getNextPage']>().returns.toEqualTypeOf<PagePromise<Product>>();
  });

  test('is async-iterable over items, and so is a Page', () => {
    expectTypeOf<PagePromise<Product>>().toExtend<AsyncIterable<Product>>();
    expectTypeOf<Page<Product>>().toExtend<AsyncIterable<Product>>();
    async function firstName(): Promise<void> {
      for await (const product of client.products.list()) {
        expectTypeOf(product).toEqualTypeOf<Product>();
      }
    }
    expectTypeOf(firstName).returns.resolves.toBeVoid();
  });
});

describe('open enums', () => {
  type Status = Exclude<Refund['status'], null | undefined>;
  /** The literal members of a union, without its `string & {}` catch-all. */
  type Known<T> = T extends string ? (string extends T ? never : T) : never;

  test('accept a status the spec does not name', () => {
    expectTypeOf<'chargeback_pending'>().toExtend<Status>();
    expectTypeOf<string>().toExtend<Status>();
  });

  test('keep the known literals, so editors still complete them', () => {
    expectTypeOf<'requested' | 'success' | 'completed' | 'failed'>().toExtend<Status>();
    expectTypeOf<Known<Status>>().toEqualTypeOf<'requested' | 'success' | 'completed' | 'failed'>();
    expectTypeOf<Known<RefundStatus['status']>>().toEqualTypeOf<
      'requested' | 'success' | 'completed' | 'failed'
    >();
  });

  test('reject what is not a string', () => {
    expectTypeOf<number>().not.toExtend<Status>();
  });
});

describe('errors', () => {
  test('narrow with instanceof', () => {
    const err: unknown = new Error('x');
    if (err instanceof UnprocessableEntityError) {
      expectTypeOf(err.fieldErrors).toEqualTypeOf<Record<string, string[]>>();
      expectTypeOf(err.status).toEqualTypeOf<422>();
    }
    if (err instanceof RateLimitError) {
      expectTypeOf(err.retryAfterMs).toEqualTypeOf<number | undefined>();
      expectTypeOf(err).toExtend<APIError>();
    }
    if (err instanceof NotFoundError || err instanceof AuthenticationError) {
      expectTypeOf(err.headers).toEqualTypeOf<Headers>();
    }
    if (err instanceof PartnerError) {
      expectTypeOf(err).toExtend<Error>();
      expectTypeOf(err).not.toHaveProperty('status');
    }
  });

  test('narrow status to the code each class names (errors guide, the table of classes)', () => {
    const err: unknown = new Error('x');
    if (err instanceof BadRequestError) expectTypeOf(err.status).toEqualTypeOf<400>();
    if (err instanceof AuthenticationError) expectTypeOf(err.status).toEqualTypeOf<401>();
    if (err instanceof PermissionDeniedError) expectTypeOf(err.status).toEqualTypeOf<403>();
    if (err instanceof NotFoundError) expectTypeOf(err.status).toEqualTypeOf<404>();
    if (err instanceof ConflictError) expectTypeOf(err.status).toEqualTypeOf<409>();
    if (err instanceof RateLimitError) expectTypeOf(err.status).toEqualTypeOf<429>();
    // 500 or above: any of them.
    if (err instanceof InternalServerError) expectTypeOf(err.status).toEqualTypeOf<number>();
    if (err instanceof NotFoundError || err instanceof ConflictError) {
      expectTypeOf(err.status).toEqualTypeOf<404 | 409>();
    }
  });

  test('form one hierarchy under PartnerError', () => {
    expectTypeOf<UnprocessableEntityError>().toExtend<APIError>();
    expectTypeOf<APIError>().toExtend<PartnerError>();
  });
});

describe('APIPromise.withResponse()', () => {
  test('gives the parsed data and the Response', () => {
    const call = client.products.retrieve('prd_1');
    expectTypeOf(call).toExtend<PromiseLike<Product>>();
    expectTypeOf(call.withResponse()).toEqualTypeOf<Promise<WithResponse<Product>>>();
    expectTypeOf<WithResponse<Product>>().toEqualTypeOf<{ data: Product; response: Response }>();
  });

  test('on a list gives the first Page', () => {
    expectTypeOf(client.products.list().withResponse())
      .resolves.toHaveProperty('data')
      .toEqualTypeOf<Page<Product>>();
  });
});
