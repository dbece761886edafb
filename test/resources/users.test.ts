import { Readable } from 'node:stream';
import vm from 'node:vm';
import { HttpResponse, http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type CompanyProfileParams,
  InternalServerError,
  type PartnerClient,
  type PersonProfileParams,
  RequestValidationError,
  ResponseValidationError,
  type SellerClient,
  toFile,
  UnprocessableEntityError,
  type UpdateUserParams,
  type User,
} from '../../src/index';
import { wireUser } from '../helpers/kit-fixtures';
import {
  BASE_URL,
  CLIENT_TOKEN,
  makeClient,
  onlyRequest,
  PUBLIC_TOKEN,
  rejectionOf,
  reply,
  replySequence,
  requests,
  server,
  useMockApi,
} from '../helpers/msw-api';

useMockApi();

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);

const address = () => ({
  zip_code: '01310-100',
  city: 'São Paulo',
  state: 'SP',
  country: 'Brasil',
  street: 'Av. Paulista',
  street_number: 's/n',
  neighborhood: 'Bela Vista',
});

/** A valid person profile. */
const person = (): PersonProfileParams => ({
  name: 'Ana Souza',
  cpf: '123.456.789-09',
  birth: '1990-04-01',
  address: address(),
});

/** A valid company profile with its partner. */
const company = (): CompanyProfileParams => ({
  name: 'Pães da Ana',
  cnpj: '12.345.678/0001-90',
  company_type: 'mei',
  social_name: 'Pães da Ana LTDA',
  address: address(),
  company_partner: { name: 'Ana Souza', cpf: '123.456.789-09', birth: '1990-04-01' },
});

const seller = (client: PartnerClient = makeClient()) => client.forUser(PUBLIC_TOKEN);
const answerUser = () => reply('post', '/users/update', wireUser());

/** Sends `params`, expecting them to pass, and returns the multipart form that arrived. */
async function sentForm(params: UpdateUserParams): Promise<FormData> {
  answerUser();
  await seller().users.update(params);
  return onlyRequest().formData();
}

/** Sends `params`, expecting a RequestValidationError before anything leaves; returns the issue paths. */
async function refused(params: Record<string, unknown>): Promise<string[]> {
  const error = await rejectionOf(seller().users.update(params as unknown as UpdateUserParams));
  expect(error).toBeInstanceOf(RequestValidationError);
  expect(requests()).toHaveLength(0);
  return (error as RequestValidationError).issues.map((issue) => issue.path.join('.'));
}

/** The parts of a form as plain values (files as `name|type|bytes`), for whole-form comparisons. */
async function formEntries(form: FormData): Promise<[string, string][]> {
  const entries: [string, string][] = [];
  for (const [key, value] of form.entries()) {
    entries.push([
      key,
      typeof value === 'string'
        ? value
        : `${value.name}|${value.type}|${[...new Uint8Array(await value.arrayBuffer())]}`,
    ]);
  }
  return entries;
}

describe('users.update', () => {
  it('sends POST /users/update as multipart with both tokens and returns the typed user', async () => {
    answerUser();
    const user = await seller().users.update(person());

    const sent = onlyRequest();
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/users/update');
    expect(sent.query).toEqual({});
    expect(sent.headers.get('x-api-client-token')).toBe(CLIENT_TOKEN);
    expect(sent.headers.get('authorization')).toBe(`Bearer ${PUBLIC_TOKEN}`);
    expect(sent.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(user).toEqual(wireUser());
    expectTypeOf(user).toEqualTypeOf<User>();
  });

  it('encodes nested fields in bracket form and booleans as 1/0, read back by a real multipart parser', async () => {
    const form = await sentForm({
      ...person(),
      address: { ...address(), complement: 'Sala 12', is_default: true },
      phones: [
        { ddi: '55', ddd: '11', number: '912345678', type: 'mobile' },
        { id: 7, ddd: '21', number: '23456789', type: 'landline' },
      ],
      is_emancipated: false,
      about: 'Cursos de culinária',
      website: 'https://ana.example.com',
      recovery_email: 'ana.recovery@example.com',
      nickname: 'aninha',
    });
    // Parts in any order: a Laravel service reads them by name.
    expect((await formEntries(form)).sort()).toEqual(
      [
        ['name', 'Ana Souza'],
        ['cpf', '123.456.789-09'],
        ['birth', '1990-04-01'],
        ['address[zip_code]', '01310-100'],
        ['address[city]', 'São Paulo'],
        ['address[state]', 'SP'],
        ['address[country]', 'Brasil'],
        ['address[street]', 'Av. Paulista'],
        ['address[street_number]', 's/n'],
        ['address[neighborhood]', 'Bela Vista'],
        ['address[complement]', 'Sala 12'],
        ['address[is_default]', '1'],
        ['phones[0][ddi]', '55'],
        ['phones[0][ddd]', '11'],
        ['phones[0][number]', '912345678'],
        ['phones[0][type]', 'mobile'],
        ['phones[1][id]', '7'],
        ['phones[1][ddd]', '21'],
        ['phones[1][number]', '23456789'],
        ['phones[1][type]', 'landline'],
        ['is_emancipated', '0'],
        ['about', 'Cursos de culinária'],
        ['website', 'https://ana.example.com'],
        ['recovery_email', 'ana.recovery@example.com'],
        ['nickname', 'aninha'],
      ].sort(),
    );
  });

  it('sends the company variant with its partner in bracket form', async () => {
    const form = await sentForm(company());
    expect(form.get('cnpj')).toBe('12.345.678/0001-90');
    expect(form.get('company_type')).toBe('mei');
    expect(form.get('social_name')).toBe('Pães da Ana LTDA');
    expect(form.get('company_partner[name]')).toBe('Ana Souza');
    expect(form.get('company_partner[cpf]')).toBe('123.456.789-09');
    expect(form.get('company_partner[birth]')).toBe('1990-04-01');
  });

  it('sends an avatar built with toFile with its name, type and bytes', async () => {
    const avatar = await toFile(PNG, 'avatar.png', { type: 'image/png' });
    const file = (await sentForm({ ...person(), avatar })).get('avatar') as File;
    expect(file).toBeInstanceOf(File);
    expect(file.name).toBe('avatar.png');
    expect(file.type).toBe('image/png');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG);
  });

  it('sends a raw Uint8Array as a file part with its bytes', async () => {
    const file = (await sentForm({ ...person(), avatar: PNG })).get('avatar') as File;
    expect(file).toBeInstanceOf(File);
    expect(file.name).toBe('avatar');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG);
  });

  it('sends a ReadableStream as a file part with its bytes, also through toFile', async () => {
    const stream = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(PNG.slice(0, 5));
          controller.enqueue(PNG.slice(5));
          controller.close();
        },
      });
    const raw = (await sentForm({ ...person(), avatar: stream() })).get('avatar') as File;
    expect(new Uint8Array(await raw.arrayBuffer())).toEqual(PNG);

    const named = await toFile(stream(), 'me.png', { type: 'image/png' });
    await seller().users.update({ ...person(), emancipated_document: named });
    const file = (await requests()[1]?.formData())?.get('emancipated_document') as File;
    expect(file.name).toBe('me.png');
    expect(file.type).toBe('image/png');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG);
  });

  /** A stream that never ends (64 KiB a pull), counting the bytes it gave and whether it was cancelled. */
  const endless = () => {
    const state = { given: 0, cancelled: false };
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(64 * 1024));
        state.given += 64 * 1024;
      },
      cancel() {
        state.cancelled = true;
      },
    });
    return { stream, state };
  };

  /** A stream of `size` bytes, in chunks of 1000. */
  const sized = (size: number) => {
    let left = size;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (left === 0) return controller.close();
        const chunk = Math.min(1000, left);
        left -= chunk;
        controller.enqueue(new Uint8Array(chunk).fill(7));
      },
    });
  };

  it('stops reading an endless stream past maxUploadBytes (default 32 MiB) and refuses the call naming the field and the bound, nothing sent', async () => {
    const limit = 32 * 1024 * 1024;
    const { stream, state } = endless();
    const error = await rejectionOf(seller().users.update({ ...person(), avatar: stream }));
    expect(error).toBeInstanceOf(RequestValidationError);
    const { issues, message } = error as RequestValidationError;
    expect(issues).toEqual([expect.objectContaining({ path: ['avatar'], code: 'too_big' })]);
    expect(message).toContain('avatar');
    expect(message).toContain(`${limit} bytes (maxUploadBytes)`);
    // Read up to the bound and one chunk past it, then cancelled: never the caller's whole memory.
    expect(state.given).toBeLessThanOrEqual(limit + 2 * 64 * 1024);
    expect(state.cancelled).toBe(true);
    expect(requests()).toEqual([]);
  }, 30_000);

  it('sends a stream of exactly maxUploadBytes; one byte more is refused, per client and per call, a Blob too', async () => {
    const client = makeClient({ maxUploadBytes: 5_000 });
    answerUser();
    await seller(client).users.update({ ...person(), emancipated_document: sized(5_000) });
    const file = (await onlyRequest().formData()).get('emancipated_document') as File;
    expect(file.size).toBe(5_000);
    for (const emancipated_document of [sized(5_001), new Blob([new Uint8Array(5_001)])]) {
      const error = await rejectionOf(
        seller(client).users.update({ ...person(), emancipated_document }),
      );
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as Error).message).toContain('emancipated_document');
      expect((error as Error).message).toContain('5000 bytes (maxUploadBytes)');
    }
    expect(requests()).toHaveLength(1);
    // Raised for one call.
    answerUser();
    await seller(client).users.update(
      { ...person(), avatar: sized(5_001) },
      { maxUploadBytes: 10_000 },
    );
    expect(requests()).toHaveLength(2);
    for (const maxUploadBytes of [0, -1, 1.5, Number.NaN]) {
      expect(() => makeClient({ maxUploadBytes })).toThrow(/maxUploadBytes/);
    }
  });

  it('toFile reads a stream up to maxBytes (default 32 MiB) and cancels an endless one past it', async () => {
    const { stream, state } = endless();
    const error = await rejectionOf(toFile(stream, 'endless.bin'));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toContain(`${32 * 1024 * 1024} bytes (maxBytes)`);
    expect(state.cancelled).toBe(true);
    expect(state.given).toBeLessThanOrEqual(32 * 1024 * 1024 + 2 * 64 * 1024);
    expect((await toFile(sized(5_000), 'at.bin', { maxBytes: 5_000 })).size).toBe(5_000);
    const over = await rejectionOf(toFile(sized(5_001), 'over.bin', { maxBytes: 5_000 }));
    expect((over as Error).message).toContain('5000 bytes (maxBytes)');
    await expect(toFile(PNG, 'x.png', { maxBytes: 0 })).rejects.toThrow(TypeError);
  }, 30_000);

  it("sends Node's own stream made a web one (Readable.toWeb) as a file part with its bytes", async () => {
    const avatar = Readable.toWeb(Readable.from([PNG.slice(0, 5), PNG.slice(5)]));
    const file = (await sentForm({ ...person(), avatar })).get('avatar') as File;
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG);
  });

  /** Files of another realm (a vm context, a polyfill) than the SDK's: each a factory of one. */
  const otherRealm: Record<string, () => unknown> = {
    "a vm context's ArrayBuffer": () =>
      vm.runInContext('new Uint8Array(bytes).buffer', vm.createContext({ bytes: [...PNG] })),
    // No ReadableStream of this realm, only the reader a web stream promises.
    'a polyfilled stream': () => {
      const chunks = [PNG.slice(0, 5), PNG.slice(5)];
      return {
        getReader: () => ({
          read: async () =>
            chunks.length > 0
              ? { done: false, value: chunks.shift() }
              : { done: true, value: undefined },
          releaseLock: () => {},
          cancel: async () => {},
        }),
      };
    },
    // fetch-blob's and formdata-node's say what they are, as their class's tag.
    "another library's Blob": () =>
      new (class ForeignBlob {
        readonly size = PNG.byteLength;
        readonly type = 'image/png';
        get [Symbol.toStringTag]() {
          return 'Blob';
        }
        async arrayBuffer() {
          return PNG.slice().buffer;
        }
      })(),
  };

  it.each(Object.keys(otherRealm))('sends %s as a file part with its bytes', async (kind) => {
    const avatar = otherRealm[kind]!();
    expect(avatar).not.toBeInstanceOf(ArrayBuffer);
    const file = (await sentForm({ ...person(), avatar } as never)).get('avatar');
    expect(file).toBeInstanceOf(File);
    expect(new Uint8Array(await (file as File).arrayBuffer())).toEqual(PNG);
  });

  it('replays after a 500 without company_partner, with the same bytes', async () => {
    replySequence(
      'post',
      '/users/update',
      HttpResponse.json({ message: 'Server Error' }, { status: 500 }),
      HttpResponse.json(wireUser()),
    );
    const avatar = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(PNG);
        controller.close();
      },
    });
    await seller(makeClient({ maxRetries: 1 })).users.update({ ...person(), avatar });
    expect(requests()).toHaveLength(2);
    const [first, second] = await Promise.all(
      requests().map(async (r) => formEntries(await r.formData())),
    );
    expect(second).toEqual(first);
    expect(first).toContainEqual(['avatar', `avatar|application/octet-stream|${[...PNG]}`]);
  });

  it('is not replayed after a 500 when the body carries company_partner', async () => {
    reply('post', '/users/update', { message: 'Server Error' }, { status: 500 });
    const error = await rejectionOf(seller(makeClient({ maxRetries: 2 })).users.update(company()));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(requests()).toHaveLength(1);
  });

  it('turns a Laravel 422 into UnprocessableEntityError with the field errors', async () => {
    reply(
      'post',
      '/users/update',
      {
        message: 'The company partner field is prohibited.',
        errors: { company_partner: ['The company partner field is prohibited.'] },
      },
      { status: 422 },
    );
    const error = (await rejectionOf(seller().users.update(company()))) as UnprocessableEntityError;
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error.fieldErrors).toEqual({
      company_partner: ['The company partner field is prohibited.'],
    });
  });

  it('reads unknown statuses and types, null fields and extra keys', async () => {
    const odd = {
      ...wireUser(),
      status: 'under_review',
      type: 'foreigner',
      avatar: null,
      address: null,
      phones: [{ id: 1, ddi: null, ddd: '11', type: 'fax', number: '12345678', verified: true }],
      about: null,
      company_type: null,
      onboarding: { step: 3 },
    };
    reply('post', '/users/update', odd);
    expect(await seller().users.update(person())).toEqual(odd);
  });

  it('throws ResponseValidationError naming a wrong-typed field, with the raw body', async () => {
    const body = { ...wireUser(), is_approved: 'yes' };
    reply('post', '/users/update', body);
    const error = (await rejectionOf(seller().users.update(person()))) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues.map((i) => i.path)).toEqual([['is_approved']]);
    // The raw body is kept, but the seller's public token in it is a secret: redacted.
    expect(error.body).toEqual({ ...body, public_token: '[REDACTED]' });
  });

  it('throws ResponseValidationError when an always-present field is missing', async () => {
    const { email: _email, ...body } = wireUser();
    reply('post', '/users/update', body);
    const error = (await rejectionOf(seller().users.update(person()))) as ResponseValidationError;
    expect(error.issues.map((i) => i.path)).toEqual([['email']]);
  });

  it('gives status and headers through .withResponse()', async () => {
    server.use(
      http.post(`${BASE_URL}/users/update`, () =>
        HttpResponse.json(wireUser(), { headers: { 'x-request-id': 'r-1' } }),
      ),
    );
    const { data, response } = await seller().users.update(person()).withResponse();
    expect(data.code).toBe(wireUser().code);
    expect(response.headers.get('x-request-id')).toBe('r-1');
  });
});

describe('profile limits (spec §2.2, §2.3, §4.1, §8)', () => {
  const ADDRESS_TEXT = ['city', 'country', 'street', 'street_number', 'neighborhood', 'complement'];

  it.each<[string, UpdateUserParams]>([
    ['a name of 3 characters', { ...person(), name: 'Ana' }],
    ['a name of 191 characters', { ...person(), name: 'a'.repeat(191) }],
    ['a name of 191 characters outside the BMP', { ...person(), name: '😀'.repeat(191) }],
    ...ADDRESS_TEXT.map((field): [string, UpdateUserParams] => [
      `address ${field} of 191 characters`,
      { ...person(), address: { ...address(), [field]: 'x'.repeat(191) } },
    ]),
    ['state SP', { ...person(), address: { ...address(), state: 'SP' } }],
    ['ddi of 5 and ddd of 2', { ...person(), phones: [{ ddi: '12345', ddd: '11', type: 'work' }] }],
    ['an 8-digit number', { ...person(), phones: [{ number: '12345678', type: 'landline' }] }],
    ['a 9-digit number', { ...person(), phones: [{ number: '912345678', type: 'mobile' }] }],
    ['a phone type of 191 characters', { ...person(), phones: [{ type: 't'.repeat(191) }] }],
    ['a nickname of 191 characters', { ...person(), nickname: 'n'.repeat(191) }],
    [
      'phone ids 1 and 999999999',
      {
        ...person(),
        phones: [
          { id: 1, type: 'work' },
          { id: 999_999_999, type: 'work' },
        ],
      },
    ],
    ['a company', company()],
    [
      'a partner name of 191 characters',
      {
        ...company(),
        company_partner: { name: 'p'.repeat(191), cpf: '987.654.321-00' },
      },
    ],
    ['a company social_name of 191 characters', { ...company(), social_name: 's'.repeat(191) }],
  ])('sends %s', async (_what, params) => {
    const form = await sentForm(params);
    expect(form.get('name')).toBe(params.name);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a name of 2 characters', { ...person(), name: 'An' }, 'name'],
    ['a name of 192 characters', { ...person(), name: 'a'.repeat(192) }, 'name'],
    ['no name', { ...person(), name: undefined }, 'name'],
    ['no address', { ...person(), address: undefined }, 'address'],
    ...ADDRESS_TEXT.map((field): [string, Record<string, unknown>, string] => [
      `address ${field} of 192 characters`,
      { ...person(), address: { ...address(), [field]: 'x'.repeat(192) } },
      `address.${field}`,
    ]),
    ...['zip_code', 'city', 'state', 'country', 'street', 'street_number', 'neighborhood'].map(
      (field): [string, Record<string, unknown>, string] => [
        `an address without ${field}`,
        { ...person(), address: { ...address(), [field]: undefined } },
        `address.${field}`,
      ],
    ),
    [
      'a zip code without its dash',
      { ...person(), address: { ...address(), zip_code: '01310100' } },
      'address.zip_code',
    ],
    [
      'a zip code of 11 characters',
      { ...person(), address: { ...address(), zip_code: '01310-10000' } },
      'address.zip_code',
    ],
    ['state of 1 letter', { ...person(), address: { ...address(), state: 'S' } }, 'address.state'],
    [
      'state of 3 letters',
      { ...person(), address: { ...address(), state: 'SPX' } },
      'address.state',
    ],
    ['ddi of 6', { ...person(), phones: [{ ddi: '123456', type: 'work' }] }, 'phones.0.ddi'],
    ['ddd of 3', { ...person(), phones: [{ ddd: '111', type: 'work' }] }, 'phones.0.ddd'],
    [
      'a 7-digit number',
      { ...person(), phones: [{ number: '1234567', type: 'mobile' }] },
      'phones.0.number',
    ],
    [
      'a 10-digit number',
      { ...person(), phones: [{ number: '1191234567', type: 'mobile' }] },
      'phones.0.number',
    ],
    [
      'a number with a dash',
      { ...person(), phones: [{ number: '9123-4567', type: 'mobile' }] },
      'phones.0.number',
    ],
    ['a phone id of 0', { ...person(), phones: [{ id: 0, type: 'work' }] }, 'phones.0.id'],
    [
      'a phone id of 1000000000',
      { ...person(), phones: [{ id: 1_000_000_000, type: 'work' }] },
      'phones.0.id',
    ],
    ['a phone without type', { ...person(), phones: [{ number: '912345678' }] }, 'phones.0.type'],
    [
      'a phone type of 192 characters',
      { ...person(), phones: [{ type: 't'.repeat(192) }] },
      'phones.0.type',
    ],
    ['a nickname of 192 characters', { ...person(), nickname: 'n'.repeat(192) }, 'nickname'],
    ['a cpf without punctuation', { ...person(), cpf: '12345678909' }, 'cpf'],
    ['a cnpj without punctuation', { ...company(), cnpj: '12345678000190' }, 'cnpj'],
    ['a company_type outside the set', { ...company(), company_type: 'ltda' }, 'company_type'],
    [
      'a social_name of 192 characters',
      { ...company(), social_name: 's'.repeat(192) },
      'social_name',
    ],
    [
      'a partner name of 192 characters',
      { ...company(), company_partner: { name: 'p'.repeat(192) } },
      'company_partner.name',
    ],
    ['a website that is no URL', { ...person(), website: 'ana dot com' }, 'website'],
    [
      'a recovery e-mail that is no address',
      { ...person(), recovery_email: 'ana' },
      'recovery_email',
    ],
    ['an avatar that is no file', { ...person(), avatar: 'avatar.png' }, 'avatar'],
    ['is_emancipated as a string', { ...person(), is_emancipated: 'true' }, 'is_emancipated'],
  ])('refuses %s before sending', async (_what, params, field) => {
    expect(await refused(params)).toEqual([field]);
  });
});

describe('strings as the service reads them (trimmed; blank counts as missing)', () => {
  it('sends every string trimmed, and a blank optional one as an empty part', async () => {
    const form = await sentForm({
      ...person(),
      name: '  Ana Souza\n',
      address: { ...address(), city: '\tSão Paulo ', complement: '   ' },
      phones: [{ type: ' mobile ', number: ' 912345678 ' }],
      nickname: '  ',
    });
    expect(form.get('name')).toBe('Ana Souza');
    expect(form.get('address[city]')).toBe('São Paulo');
    expect(form.get('address[complement]')).toBe('');
    expect(form.get('phones[0][type]')).toBe('mobile');
    expect(form.get('phones[0][number]')).toBe('912345678');
    expect(form.get('nickname')).toBe('');
  });

  it.each([
    ['a name of 2 characters inside spaces', { ...person(), name: '  Jo ' }, ['name']],
    ['a blank name', { ...person(), name: '   ' }, ['name']],
    ['a blank city', { ...person(), address: { ...address(), city: ' \t ' } }, ['address.city']],
    ['a blank birth beside cpf', { ...person(), birth: '  ' }, ['birth']],
    ['a birth on no real day', { ...person(), birth: '1990-02-30' }, ['birth']],
  ])('refuses %s before sending', async (_what, params, fields) => {
    expect(await refused(params)).toEqual(fields);
  });

  it('says a missing or blank field is required, and a wrong type what it expected', async () => {
    const { street: _left, ...withoutStreet } = address();
    const params = {
      ...person(),
      name: '   ',
      address: { ...withoutStreet, city: 42 },
    } as unknown as UpdateUserParams;
    const error = (await rejectionOf(seller().users.update(params))) as RequestValidationError;
    expect(error).toBeInstanceOf(RequestValidationError);
    const said = Object.fromEntries(
      error.issues.map((issue) => [issue.path.join('.'), issue.message]),
    );
    expect(said).toEqual({
      name: 'Required',
      'address.street': 'Required',
      'address.city': 'Expected a string',
    });
    expect(requests()).toHaveLength(0);
  });
});

describe('profile variant by the tax id sent (DESIGN §5)', () => {
  it('requires birth when cpf is sent', async () => {
    expect(await refused({ ...person(), birth: undefined })).toEqual(['birth']);
  });

  it('requires company_type and social_name when cnpj is sent', async () => {
    expect(
      await refused({ ...company(), company_type: undefined, social_name: undefined }),
    ).toEqual(['company_type', 'social_name']);
  });

  it.each<[string, Record<string, unknown>]>([
    // Which tax id the user's type needs, and the partner being required, depend on service state.
    // The first two the types refuse (spec §4.1 rule 2); plain JavaScript may still send them.
    ['no tax id at all', { name: 'Ana Souza', address: address() }],
    ['birth without cpf', { name: 'Ana Souza', address: address(), birth: '2010-01-01' }],
    ['a company without company_partner', { ...company(), company_partner: undefined }],
  ])('leaves %s to the service', async (_what, params) => {
    await sentForm(params as unknown as UpdateUserParams);
  });
});

describe('users types', () => {
  it('exists on the seller client only, and exports its parameter and result types', () => {
    const root = makeClient();
    // @ts-expect-error the profile update needs the seller's bearer token
    root.users;
    expectTypeOf(root.forUser(PUBLIC_TOKEN)).toEqualTypeOf<SellerClient>();
    expectTypeOf(seller().users.update).parameter(0).toEqualTypeOf<UpdateUserParams>();
    expectTypeOf(seller().users.update).returns.resolves.toEqualTypeOf<User>();
    expectTypeOf<User['code']>().toEqualTypeOf<string>();
    expectTypeOf<PartnerClient>().not.toHaveProperty('users');
  });
});
