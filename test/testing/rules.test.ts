import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMockPartnerApi, type MockPartnerApi } from '../../src/testing';
import { call, sellerHeaders } from './helpers';

afterEach(() => {
  vi.useRealTimers();
});

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function address(form: FormData): void {
  form.set('address[zip_code]', '01310-100');
  form.set('address[city]', 'São Paulo');
  form.set('address[state]', 'SP');
  form.set('address[country]', 'Brasil');
  form.set('address[street]', 'Avenida Paulista');
  form.set('address[street_number]', '1000');
  form.set('address[neighborhood]', 'Bela Vista');
}

function personForm(fields: Record<string, string | Blob> = {}): FormData {
  const form = new FormData();
  form.set('name', 'Maria Aparecida Souza');
  address(form);
  form.set('cpf', '529.982.247-25');
  form.set('birth', '1988-04-12');
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  return form;
}

function companyForm(fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  form.set('name', 'Editora Horizonte');
  address(form);
  form.set('cnpj', '11.222.333/0001-81');
  form.set('company_type', 'simple');
  form.set('social_name', 'Editora Horizonte Digital Ltda');
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  return form;
}

async function updateProfile(mock: MockPartnerApi, form: FormData, seller = mock.sellers.person) {
  const res = await mock.fetch(`${mock.baseUrl}/users/update`, {
    method: 'POST',
    headers: sellerHeaders(mock, { Authorization: `Bearer ${seller.publicToken}` }),
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Pins the clock: 10 March 2026, 09:00 in São Paulo. */
function pinClock(): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-03-10T12:00:00Z'));
}

describe('the kit answers each rule of the profile update with the service’s 422', () => {
  it('puts the first message on top and every field under errors, in Laravel’s words', async () => {
    const mock = createMockPartnerApi();
    const form = personForm({ name: 'Jo', 'phones[0][type]': 'mobile' });
    form.set('phones[0][number]', '1234567');
    form.set('address[state]', 'São Paulo');
    const res = await updateProfile(mock, form);
    expect(res).toEqual({
      status: 422,
      body: {
        message: 'The name must be at least 3 characters. (and 2 more errors)',
        errors: {
          name: ['The name must be at least 3 characters.'],
          'address.state': ['The address.state must not be greater than 2 characters.'],
          'phones.0.number': ['The phones.0.number must be between 8 and 9 digits.'],
        },
      },
    });
  });

  it('trims text as Laravel does before judging it, and stores it trimmed', async () => {
    const mock = createMockPartnerApi();
    const short = await updateProfile(mock, personForm({ name: '  Jo  ' }));
    expect(short.body.errors).toEqual({ name: ['The name must be at least 3 characters.'] });
    const blank = await updateProfile(mock, personForm({ name: '   ' }));
    expect(blank.body.errors).toEqual({ name: ['The name field is required.'] });
    const padded = await updateProfile(mock, personForm({ name: '  Maria Souza ' }));
    expect(padded).toMatchObject({ status: 200, body: { name: 'Maria Souza' } });
  });

  it('trims what Laravel’s Str::trim trims beyond spaces: zero-width space, left-to-right mark, NUL', async () => {
    const mock = createMockPartnerApi();
    const short = await updateProfile(mock, personForm({ name: '\u200BJo\u200E\0\u0085' }));
    expect(short.body.errors).toEqual({ name: ['The name must be at least 3 characters.'] });
    const padded = await updateProfile(mock, personForm({ name: '\u200BMaria\u180E' }));
    expect(padded).toMatchObject({ status: 200, body: { name: 'Maria' } });
    // PHP's `/u` reads `\s` as PCRE does under Unicode: a separator (`\p{Z}`), a horizontal
    // space (`\h`) or a vertical one (`\v`), one of each kind here at each end.
    for (const [left, right] of [
      ['\u00A0', '\u3000'],
      ['\u2028', '\u2029'],
      ['\v', '\u205F'],
      ['\uFEFF', '\u202F'],
    ]) {
      const name = `${left}Jo${right}`;
      const res = await updateProfile(mock, personForm({ name }));
      expect(res.body.errors, JSON.stringify(name)).toEqual({
        name: ['The name must be at least 3 characters.'],
      });
    }
    // A right-to-left mark is text to Laravel: kept, and counted.
    const marked = await updateProfile(mock, personForm({ name: 'Jo\u200F' }));
    expect(marked).toMatchObject({ status: 200, body: { name: 'Jo\u200F' } });
  });

  it('refuses a birth date that is not before today only behind its assumedRules switch', async () => {
    pinClock();
    const strict = createMockPartnerApi({ assumedRules: { birthBeforeToday: true } });
    for (const birth of ['2026-03-10', '2027-01-01']) {
      const res = await updateProfile(strict, personForm({ birth }));
      expect(res.body.errors).toEqual({ birth: ['The birth must be a date before today.'] });
      // The spec states no such rule: by default the kit accepts it.
      expect((await updateProfile(createMockPartnerApi(), personForm({ birth }))).status).toBe(200);
    }
    const garbage = await updateProfile(strict, personForm({ birth: '31/02/1990' }));
    expect(garbage.body.errors).toEqual({ birth: ['The birth is not a valid date.'] });
  });

  it('asks a person under 18, by the clock, for the emancipation fields', async () => {
    pinClock();
    const mock = createMockPartnerApi();
    const minor = await updateProfile(mock, personForm({ birth: '2008-03-11' }));
    expect(minor).toMatchObject({
      status: 422,
      body: {
        errors: {
          is_emancipated: ['The is emancipated field is required.'],
          emancipated_document: ['The emancipated document field is required.'],
        },
      },
    });
    const emancipated = personForm({ birth: '2008-03-11', is_emancipated: '1' });
    emancipated.set('emancipated_document', new File(['%PDF-1.4'], 'doc.pdf'));
    expect((await updateProfile(mock, emancipated)).status).toBe(200);
    expect((await updateProfile(mock, personForm({ birth: '2008-03-10' }))).status).toBe(200);
  });

  it('accepts any avatar file by default: the spec says only "file"', async () => {
    const text = new File(['not an image'], 'me.png', { type: 'image/png' });
    const res = await updateProfile(createMockPartnerApi(), personForm({ avatar: text }));
    expect(res.status).toBe(200);
  });

  it('refuses an avatar whose bytes are not an image behind its assumedRules switch, whatever its declared type', async () => {
    const mock = createMockPartnerApi({ assumedRules: { avatarIsImage: true } });
    const text = new File(['not an image'], 'me.png', { type: 'image/png' });
    const res = await updateProfile(mock, personForm({ avatar: text }));
    expect(res.body).toEqual({
      message: 'The avatar must be an image.',
      errors: { avatar: ['The avatar must be an image.'] },
    });
    const png = new File([PNG], 'me.bin', { type: 'application/octet-stream' });
    expect((await updateProfile(mock, personForm({ avatar: png }))).status).toBe(200);
  });

  it.each<[string, string | Uint8Array<ArrayBuffer>]>([
    ['JPEG', new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10])],
    ['PNG', PNG],
    ['GIF', 'GIF89a\x01\x00\x01\x00'],
    ['BMP', 'BM6\x00\x00\x00'],
    ['WebP', 'RIFF\x24\x00\x00\x00WEBPVP8 '],
    ['SVG', '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"></svg>'],
  ])('takes a %s avatar, told by its bytes, behind the avatarIsImage switch', async (_, bytes) => {
    const mock = createMockPartnerApi({ assumedRules: { avatarIsImage: true } });
    const avatar = new File([bytes], 'me.bin', { type: 'application/octet-stream' });
    expect((await updateProfile(mock, personForm({ avatar }))).status).toBe(200);
  });

  it('requires the fields of the seller’s stored type', async () => {
    const mock = createMockPartnerApi();
    const person = personForm();
    person.delete('cpf');
    person.delete('birth');
    expect((await updateProfile(mock, person)).body.errors).toEqual({
      birth: ['The birth field is required.'],
      cpf: ['The cpf field is required.'],
    });
    // A company sending a person's fields is still a company.
    const res = await updateProfile(mock, personForm(), mock.sellers.company);
    expect(Object.keys(res.body.errors as object)).toEqual([
      'cnpj',
      'company_type',
      'social_name',
      'company_partner',
    ]);
  });

  it('requires company_partner on the first update of a company and prohibits it after', async () => {
    const mock = createMockPartnerApi();
    const company = mock.sellers.company;
    expect((await updateProfile(mock, companyForm(), company)).body.errors).toEqual({
      company_partner: ['The company partner field is required.'],
    });
    const partner = {
      'company_partner[name]': 'Roberto Lima',
      'company_partner[cpf]': '529.982.247-25',
      'company_partner[birth]': '1975-09-30',
    };
    expect((await updateProfile(mock, companyForm(partner), company)).status).toBe(200);
    expect((await updateProfile(mock, companyForm(partner), company)).body.errors).toEqual({
      company_partner: ['The company partner field is prohibited.'],
    });
    expect((await updateProfile(mock, companyForm(), company)).status).toBe(200);
  });
});

describe('the kit answers each rule of an offer update with the service’s 422', () => {
  const offerPath = (mock: MockPartnerApi, key: 'course' | 'physical' | 'recurring') =>
    `/products/${mock.products[key].hash}/offers/${mock.products[key].offerCode}`;

  it('requires quantity_items and freight on every update of a physical product’s offer', async () => {
    const mock = createMockPartnerApi();
    const res = await call(mock, 'PUT', offerPath(mock, 'physical'), { price: 4990 });
    expect(res.body).toEqual({
      message: 'The quantity items field is required. (and 1 more error)',
      errors: {
        quantity_items: ['The quantity items field is required.'],
        freight: ['The freight field is required.'],
      },
    });
    const ok = await call(mock, 'PUT', offerPath(mock, 'physical'), {
      price: 4990,
      quantity_items: 10,
      freight: { type: 'shipping_company' },
    });
    expect(ok.status).toBe(200);
    // Optional for a course: none needed, and its bounds still hold.
    expect((await call(mock, 'PUT', offerPath(mock, 'course'), { price: 4990 })).status).toBe(200);
    expect(
      (await call(mock, 'PUT', offerPath(mock, 'course'), { quantity_items: 101 })).body.errors,
    ).toEqual({ quantity_items: ['The quantity items must not be greater than 100.'] });
  });

  it('judges recurring-only settings on the offer’s type, sent or stored, the same either way', async () => {
    const mock = createMockPartnerApi();
    const body = { commission_only_first_installment: true };
    const message =
      'The commission only first installment field is only allowed for recurring offers.';
    const stored = await call(mock, 'PUT', offerPath(mock, 'course'), body);
    const sent = await call(mock, 'PUT', offerPath(mock, 'course'), {
      ...body,
      type_of_charge: 'one-time',
    });
    for (const res of [stored, sent]) {
      expect(res.body.errors).toEqual({ commission_only_first_installment: [message] });
    }
    // false is never an offence; the same body on a recurring offer, or one turned recurring, passes.
    expect(
      (await call(mock, 'PUT', offerPath(mock, 'course'), { allow_pix_recurring: false })).status,
    ).toBe(200);
    expect((await call(mock, 'PUT', offerPath(mock, 'recurring'), body)).status).toBe(200);
    const turned = await call(mock, 'PUT', offerPath(mock, 'course'), {
      ...body,
      type_of_charge: 'recurring',
    });
    expect(turned.status).toBe(200);
    // And the other way round: bank-slip installments only for non-recurring offers.
    const slip = await call(mock, 'PUT', offerPath(mock, 'recurring'), {
      allow_bank_slip_installments: true,
    });
    expect(slip.body.errors).toEqual({
      allow_bank_slip_installments: [
        'The allow bank slip installments field is only allowed for non-recurring offers.',
      ],
    });
  });

  it('requires the automatic-PIX settings when it is switched on, then saves it false while the producer is not enabled', async () => {
    const mock = createMockPartnerApi();
    const path = offerPath(mock, 'recurring');
    const missing = await call(mock, 'PUT', path, { allow_pix_recurring: true });
    expect(missing.body.errors).toEqual({
      pix_recurring_frequency: [
        'The pix recurring frequency field is required when allow pix recurring is true.',
      ],
      pix_recurring_authorization_type: [
        'The pix recurring authorization type field is required when allow pix recurring is true.',
      ],
    });
    const wrong = await call(mock, 'PUT', path, {
      allow_pix_recurring: true,
      pix_recurring_frequency: 'daily',
      pix_recurring_authorization_type: 'monthly_auth_monthly_retry',
    });
    expect(wrong.body.errors).toEqual({
      pix_recurring_frequency: ['The selected pix recurring frequency is invalid.'],
    });
    const settings = {
      allow_pix_recurring: true,
      pix_recurring_frequency: 'monthly',
      pix_recurring_authorization_type: 'monthly_auth_monthly_retry',
    };
    const saved = await call(mock, 'PUT', path, settings);
    expect(saved.status).toBe(200);
    const { hash, offerCode, producerCode } = mock.products.recurring;
    expect(mock.getOffer(hash, offerCode)).toMatchObject({
      allow_pix_recurring: false,
      pix_recurring_frequency: 'monthly',
    });
    mock.enablePixRecurring(producerCode);
    await call(mock, 'PUT', path, settings);
    expect(mock.getOffer(hash, offerCode)?.allow_pix_recurring).toBe(true);
  });

  it('does not store a sent subscription.interval (response-only) nor unknown fields', async () => {
    const mock = createMockPartnerApi();
    const { hash, offerCode } = mock.products.recurring;
    const before = mock.getOffer(hash, offerCode)?.subscription?.interval;
    const res = await call(mock, 'PUT', offerPath(mock, 'recurring'), {
      subscription: { interval: 'yearly', max_charges: 12 },
      surprise: 'x',
    });
    expect(res.status).toBe(200);
    expect(res.body.subscription).toMatchObject({ interval: before, max_charges: 12 });
    expect(res.body).not.toHaveProperty('surprise');
  });

  it('words each documented limit as Laravel does', async () => {
    const mock = createMockPartnerApi();
    const res = await call(mock, 'PUT', offerPath(mock, 'course'), {
      name: 'x'.repeat(192),
      price: 100_000_000,
      type_of_charge: 'weekly',
      bank_slip_days_due: 0,
      credit_card_installments_options: [1, 37],
      affiliates_percentage: 80.5,
    });
    expect(res.body.errors).toEqual({
      name: ['The name must not be greater than 191 characters.'],
      price: ['The price must not be greater than 99999999.'],
      type_of_charge: ['The selected type of charge is invalid.'],
      bank_slip_days_due: ['The bank slip days due must be at least 1.'],
      'credit_card_installments_options.1': [
        'The credit card installments options.1 must not be greater than 36.',
      ],
      affiliates_percentage: ['The affiliates percentage must not be greater than 80.'],
    });
  });
});

describe('the kit answers the other endpoints’ rules with the service’s 422', () => {
  it('refund: a reason over 1000 characters, a user_id of nobody', async () => {
    const mock = createMockPartnerApi();
    const trx = mock.transactions.refundable[0]!;
    const res = await call(mock, 'POST', `/financial/refund/${trx}`, {
      reason: 'x'.repeat(1001),
      user_id: 'usr_nobody',
    });
    expect(res.body.errors).toEqual({
      reason: ['The reason must not be greater than 1000 characters.'],
      user_id: ['The selected user id is invalid.'],
    });
    const ok = await call(mock, 'POST', `/financial/refund/${trx}`, {
      reason: 'x'.repeat(1000),
      user_id: mock.sellers.company.code,
    });
    expect(ok.status).toBe(202);
  });

  it('export: betweenDates must be two real days DD/MM/YYYY; the order only behind its switch', async () => {
    const mock = createMockPartnerApi({ assumedRules: { exportRangeInOrder: true } });
    const path = '/financial/account-statement/export-report';
    const shape =
      'The filter.between dates must be two dates in the format DD/MM/YYYY separated by a comma.';
    for (const betweenDates of ['2025-02-01,2025-02-28', '31/02/2025,01/03/2025', '01/02/2025']) {
      const res = await call(mock, 'POST', path, { format: 'csv', filter: { betweenDates } });
      expect(res.body.errors).toEqual({ 'filter.betweenDates': [shape] });
    }
    const reversed = await call(mock, 'POST', path, {
      filter: { betweenDates: '28/02/2025,01/02/2025' },
    });
    expect(reversed.body.errors).toEqual({
      'filter.betweenDates': ['The filter.between dates start must not be after its end.'],
    });
    const lax = await call(createMockPartnerApi(), 'POST', path, {
      filter: { betweenDates: '28/02/2025,01/02/2025' },
    });
    expect(lax.status).toBe(200);
  });

  it('anticipations: the scenario and the page bounds', async () => {
    const mock = createMockPartnerApi();
    const confirm = await call(
      mock,
      'POST',
      `/financial/anticipation/confirm/${mock.anticipations.confirmable[0]}`,
      {},
    );
    expect(confirm.body.errors).toEqual({ scenario: ['The scenario field is required.'] });
    const list = await call(mock, 'GET', '/financial/anticipation?page=0&per_page=101');
    expect(list.body.errors).toEqual({
      page: ['The page must be at least 1.'],
      per_page: ['The per page must not be greater than 100.'],
    });
    const text = await call(mock, 'GET', '/products?page=two');
    expect(text.body.errors).toEqual({ page: ['The page must be an integer.'] });
  });

  it('sends integer from/to on an empty anticipation page', async () => {
    const mock = createMockPartnerApi();
    const res = await call(mock, 'GET', '/financial/anticipation?page=999');
    expect(res.status).toBe(200);
    expect(res.body.data.anticipations).toEqual([]);
    expect(res.body.data.pagination).toMatchObject({ current_page: 999, from: 0, to: 0 });
  });

  it("reads integers as PHP's FILTER_VALIDATE_INT does: no leading zeros, nothing past 64 bits", async () => {
    const mock = createMockPartnerApi();
    const leadingZero = await call(mock, 'GET', '/products?page=007');
    expect(leadingZero.status).toBe(422);
    expect(leadingZero.body.errors).toEqual({ page: ['The page must be an integer.'] });
    const { course } = mock.products;
    const huge = await call(mock, 'PUT', `/products/${course.hash}/offers/${course.offerCode}`, {
      price: 1e20,
    });
    expect(huge.body.errors).toEqual({ price: ['The price must be an integer.'] });
    expect((await call(mock, 'GET', '/products?page=%2B2')).status).toBe(200);
  });

  it("judges age by the kit's clock: a minor today is an adult a year after advanceClock", async () => {
    const mock = createMockPartnerApi();
    const birth = new Date(mock.now().getTime() - (17 * 365 + 180) * 86_400_000);
    const form = () => personForm({ birth: birth.toISOString().slice(0, 10) });
    expect((await updateProfile(mock, form())).status).toBe(422);
    mock.advanceClock(365 * 86_400_000);
    expect((await updateProfile(mock, form())).status).toBe(200);
  });

  it('judges "before today" by the kit\'s clock behind its assumedRules switch', async () => {
    const mock = createMockPartnerApi({ assumedRules: { birthBeforeToday: true } });
    const nextWeek = new Date(mock.now().getTime() + 7 * 86_400_000).toISOString().slice(0, 10);
    expect((await updateProfile(mock, personForm({ birth: nextWeek }))).status).toBe(422);
    mock.advanceClock(30 * 86_400_000);
    const later = await updateProfile(mock, personForm({ birth: nextWeek }));
    // Now under 18, so the emancipation fields are asked for, but the date itself passes.
    expect(Object.keys(later.body.errors as object)).not.toContain('birth');
  });

  it("takes only a URL with a scheme and a host as website, as Laravel's url rule does", async () => {
    const mock = createMockPartnerApi();
    for (const website of ['javascript:alert(1)', 'mailto:maria@example.com.br', 'https://']) {
      const res = await updateProfile(mock, personForm({ website }));
      expect(res.body.errors).toEqual({ website: ['The website must be a valid URL.'] });
    }
    const ok = await updateProfile(
      mock,
      personForm({ website: 'https://maria.example.com.br/a?b=1' }),
    );
    expect(ok.status).toBe(200);
  });
});
