import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../../src/index';
import {
  makeClient,
  rejectionOf,
  replyToAnything,
  requests,
  useMockApi,
} from '../../helpers/msw-api';

useMockApi();

// Half a UTF-16 surrogate pair has no UTF-8 form, so no URL can carry it: a path parameter or a
// query value holding one is bad input, refused before anything is sent, naming where it is.

describe('a lone surrogate in a URL part', () => {
  it('is refused in a path parameter with RequestValidationError naming it', async () => {
    replyToAnything({});
    const error = await rejectionOf(makeClient().products.retrieve('prd_\uD800'));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toEqual(['productHash']);
    expect(requests()).toHaveLength(0);
  });

  it('is refused in a query value with RequestValidationError naming it', async () => {
    replyToAnything({});
    const error = await rejectionOf(
      makeClient().products.list({ per_page: 5 }, { extraQuery: { search: 'caf\uDC00' } }),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toEqual(['search']);
    expect(requests()).toHaveLength(0);
  });

  it('leaves a whole surrogate pair (an emoji) to be sent, percent-encoded', async () => {
    replyToAnything({ hash: 'prd_😀', name: 'Curso' });
    await makeClient().products.retrieve('prd_😀');
    expect(requests()[0]?.path).toBe('/products/prd_%F0%9F%98%80');
  });
});
