import { describe, expect, it } from 'vitest';
import { RequestValidationError, toFile } from '../../../src/index';
import { paulistaAddress } from '../../helpers/addresses';
import {
  makeClient,
  onlyRequest,
  rejectionOf,
  replyToAnything,
  requests,
  useMockApi,
} from '../../helpers/msw-api';

useMockApi();

// Half a UTF-16 surrogate pair has no UTF-8 form, so no URL can carry it: a path parameter or a
// query value holding one is bad input, refused before anything is sent, naming where it is. A
// body cannot carry it either: JSON escapes it as `\ud800`, which PHP's `json_decode` refuses
// (a Laravel service then reads the request as having no fields at all), and a form turns it
// into U+FFFD; so a body's string holding one is refused the same way.

const profile = {
  name: 'Zoë Ñandú',
  address: paulistaAddress,
  cpf: '529.982.247-25',
  birth: '1988-04-12',
};

/** The paths of the issues of a call refused before sending; fails when it was sent. */
async function refusedAt(call: Promise<unknown>): Promise<unknown[]> {
  const error = await rejectionOf(call);
  expect(error).toBeInstanceOf(RequestValidationError);
  expect(requests()).toHaveLength(0);
  return (error as RequestValidationError).issues.map((issue) => issue.path);
}

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

  it('is refused in a JSON body field with RequestValidationError naming it', async () => {
    replyToAnything({});
    const client = makeClient();
    expect(await refusedAt(client.refunds.request('tx_1', { reason: 'caf\uD800' }))).toEqual([
      ['reason'],
    ]);
    expect(
      await refusedAt(
        client.offers.update('prd_1', 'off_1', { freight: { blocked_states: ['S\uDC00'] } }),
      ),
    ).toEqual([['freight', 'blocked_states', 0]]);
  });

  it('is refused in a multipart field, which would carry U+FFFD instead', async () => {
    replyToAnything({});
    const seller = makeClient().forUser('public-token');
    const city = { ...profile, address: { ...paulistaAddress, city: 'S\uD83Do Paulo' } };
    expect(await refusedAt(seller.users.update(city))).toEqual([['address', 'city']]);
  });

  it('is refused in extraBody, in a value or a name', async () => {
    replyToAnything({});
    const client = makeClient();
    const inValue = client.refunds.request(
      'tx_1',
      {},
      { extraBody: { note: { text: '\uDFFFx' } } },
    );
    expect(await refusedAt(inValue)).toEqual([['note', 'text']]);
    const inName = client.refunds.request('tx_1', {}, { extraBody: { 'n\uD800': 'x' } });
    expect(await refusedAt(inName)).toEqual([['n\uD800']]);
    const seller = makeClient().forUser('public-token');
    const inForm = seller.users.update(profile, { extraBody: { about_me: '\uD800' } });
    expect(await refusedAt(inForm)).toEqual([['about_me']]);
  });

  it('is refused in the name toFile gives a file, which File would carry as U+FFFD', async () => {
    const error = await rejectionOf(toFile(new Uint8Array([1]), 'eu\uD83D.png'));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toEqual(['name']);
  });

  it('leaves whole pairs in a body to be sent as UTF-8, an astral file name too', async () => {
    replyToAnything({ code: 'usr_1', name: 'x', status: 'a', type: 'person', email: 'a@b.c' });
    const seller = makeClient().forUser('public-token');
    const avatar = await toFile(new Uint8Array([1, 2, 3]), 'eu 😀.png', { type: 'image/png' });
    await seller.users.update({ ...profile, name: 'Zoë 😀 Ñandú', avatar });
    const form = await onlyRequest().formData();
    expect(form.get('name')).toBe('Zoë 😀 Ñandú');
    expect((form.get('avatar') as File).name).toBe('eu 😀.png');
  });
});
