/**
 * The service acted on a state-changing call and answered 200, but the answer reached the SDK
 * spoilt: its body cut short, half a gzip stream, an HTML page, an empty body, JSON of another
 * shape. Whatever the call throws, it names the 200 (the service acted), keeps what came of the
 * body, and a call the spec makes unsafe to repeat is sent once. (Refund requests:
 * `refund-answer-spoilt.test.ts`.)
 */

import {
  APIConnectionError,
  PartnerClient,
  ResponseValidationError,
  type SellerClient,
} from 'partner-sdk';
import { describe, expect, it } from 'vitest';
import { paulistaAddress } from '../helpers/addresses';
import { SPOILT, type Spoilt, spoilAnswer } from '../helpers/lossy-proxy';
import { type StubServer, stubsClosedAfterEach } from '../helpers/stub-server';

const stub = stubsClosedAfterEach();
let server: StubServer | undefined;

const address = paulistaAddress;
const person = { name: 'Ana Souza', cpf: '123.456.789-09', birth: '1990-04-01', address };
const partner = { name: 'Ana Souza', cpf: '123.456.789-09', birth: '1990-04-01' };
const company = {
  name: 'Pães da Ana',
  cnpj: '12.345.678/0001-90',
  company_type: 'mei' as const,
  social_name: 'Pães da Ana LTDA',
  address,
  company_partner: partner,
};

interface Case {
  /** The answer the service means to give. */
  body: unknown;
  call: (seller: SellerClient) => Promise<unknown>;
  /** Whether the spec makes a repeat harmless (DESIGN's replay table): else it is sent once. */
  repeatable: boolean;
}

const CASES: Record<string, Case> = {
  'statements.export': {
    body: {
      status: 'success',
      message: 'ok',
      data: { hash: 'exp_1', status: 'processing', url: null },
    },
    call: (s) =>
      s.statements.export({ format: 'csv', filter: { betweenDates: '01/01/2024,31/01/2024' } }),
    repeatable: true,
  },
  'anticipations.confirm': {
    body: { amount: 100, status: 'approved', created_at: '2024-01-01T00:00:00-03:00' },
    call: (s) => s.anticipations.confirm('ant_1', { scenario: 'above' }),
    repeatable: false,
  },
  'users.update': {
    body: { data: { name: 'Ana Souza' } },
    call: (s) => s.users.update(person),
    repeatable: true,
  },
  'users.update with company_partner': {
    body: { data: { name: 'Pães da Ana' } },
    call: (s) => s.users.update(company),
    repeatable: false,
  },
  'bankAccounts.update': {
    body: { data: { hash: 'acc_1', holder_name: 'Ana Souza' } },
    call: (s) =>
      s.bankAccounts.update('acc_1', {
        holder_name: 'Ana Souza',
        receiver_type: 'pix',
        pix_key: 'ana@example.com',
        bank_code: '341',
      }),
    repeatable: true,
  },
  'offers.update': {
    body: { data: { code: 'off_1', price: 100 } },
    call: (s) => s.offers.update('prd_1', 'off_1', { price: 100 }),
    repeatable: true,
  },
};

async function failureOf(how: Spoilt, { body, call }: Case): Promise<unknown> {
  server = await stub((_request, res) =>
    spoilAnswer(how, res, 200, Buffer.from(JSON.stringify(body))),
  );
  const client = new PartnerClient({
    baseUrl: server.baseUrl,
    clientToken: 'tok',
    logLevel: 'off',
  });
  return call(client.forUser('pub')).then(
    () => expect.unreachable('a spoilt answer must not pass as a result'),
    (error: unknown) => error,
  );
}

describe.each(Object.entries(CASES))('%s answered 200, its body spoilt', (_name, spec) => {
  it.each(['cut-body-after', 'cut-chunked-after', 'cut-gzip-after'] as const)(
    'after %s, throws an APIConnectionError naming the 200 and keeping the start of the body',
    async (how) => {
      const error = await failureOf(how, spec);
      expect(error).toBeInstanceOf(APIConnectionError);
      const broken = error as APIConnectionError;
      expect(broken.message).toMatch(/→ 200 OK, but its (gzip )?body broke off after \d+ bytes/);
      expect(broken.status).toBe(200);
      expect(JSON.stringify(spec.body).startsWith(broken.body ?? '')).toBe(true);
      expect(broken.body).not.toBe('');
      expect(server!.requests.length).toBe(spec.repeatable ? 3 : 1);
    },
  );

  it.each(SPOILT.filter((how) => !how.startsWith('cut-')))(
    'after %s, throws ResponseValidationError naming the 200 with the body as it came, sent once',
    async (how) => {
      const error = await failureOf(how, spec);
      expect(error).toBeInstanceOf(ResponseValidationError);
      const malformed = error as ResponseValidationError;
      expect(malformed.status).toBe(200);
      expect(malformed.message).toContain('→ 200 OK');
      if (how === 'html-after') expect(malformed.body).toMatch(/^<!doctype html>/);
      if (how === 'empty-after') expect(malformed.message).toContain('the body is empty');
      if (how === 'reshaped-after') expect(malformed.body).toMatchObject({ data: 'done' });
      expect(server!.requests).toHaveLength(1);
    },
  );
});
