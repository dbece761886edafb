/**
 * What the spec does not forbid but the SDK suspects is a mistake: sent as given, with one warning
 * per client through its logger (a reversed export range, an export range of Dates at midnight
 * UTC, a company partner's cpf in another format, both tax ids in one profile update).
 */
import { describe, expect, it, vi } from 'vitest';
import { PartnerClient, type UserUpdateParams } from '../../src';
import { createMockPartnerApi } from '../../src/testing';
import { paulistaAddress as address } from '../helpers/addresses';

function setup(as: 'person' | 'company' = 'person') {
  const mock = createMockPartnerApi();
  const logger = { error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() };
  const client = new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    clientToken: mock.credentials.clientToken,
    maxRetries: 0,
    logger,
    logLevel: 'warn',
  });
  return { mock, logger, seller: client.forUser(mock.sellers[as].publicToken) };
}

const warnings = (logger: { warn: ReturnType<typeof vi.fn> }) =>
  logger.warn.mock.calls.map((args) => String(args[0]));

describe('suspected mistakes are sent, with one warning', () => {
  it('sends an export range that ends before it starts, and warns once per client', async () => {
    const { mock, logger, seller } = setup();
    const first = await seller.statements.export({
      filter: { betweenDates: '28/02/2025,01/02/2025' },
    });
    expect(first.status).toBe('processing');
    await seller.statements.export({
      format: 'pdf',
      filter: { betweenDates: { start: '2025-03-31', end: '2025-03-01' } },
    });
    expect(mock.requests.at(-1)?.body).toEqual({
      format: 'pdf',
      filter: { betweenDates: '31/03/2025,01/03/2025' },
    });
    const said = warnings(logger).filter((m) => m.includes('betweenDates ends before it starts'));
    expect(said).toHaveLength(1);
  });

  it('sends a range of Dates at midnight UTC as their São Paulo days, the day before, and warns once', async () => {
    const { mock, logger, seller } = setup();
    // `new Date('2025-02-01')`, or `new Date(2025, 1, 1)` on a UTC server: 21:00 of 31 January in São Paulo.
    const betweenDates = { start: new Date('2025-02-01'), end: new Date('2025-02-28') };
    await seller.statements.export({ format: 'csv', filter: { betweenDates } });
    await seller.statements.export({ format: 'pdf', filter: { betweenDates } });
    expect(mock.requests.at(-1)?.body).toEqual({
      format: 'pdf',
      filter: { betweenDates: '31/01/2025,27/02/2025' },
    });
    const said = warnings(logger).filter((m) => m.includes('midnight UTC'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain("'YYYY-MM-DD'");
  });

  it('gives no warning for Dates at São Paulo midnight, 23:30 UTC, or day strings', async () => {
    const { mock, logger, seller } = setup();
    const start = new Date('2025-02-01T00:00:00-03:00');
    const end = new Date('2025-02-28T23:30:00Z');
    await seller.statements.export({ filter: { betweenDates: { start, end } } });
    await seller.statements.export({ filter: { betweenDates: { start: '2025-02-01', end } } });
    expect(mock.requests.at(-1)?.body).toEqual({
      filter: { betweenDates: '01/02/2025,28/02/2025' },
    });
    expect(warnings(logger)).toEqual([]);
  });

  it("sends a company partner's cpf in another format, and warns once without quoting it", async () => {
    const { logger, seller } = setup('company');
    const user = await seller.users.update({
      name: 'Editora Horizonte',
      address,
      cnpj: '11.222.333/0001-81',
      company_type: 'simple',
      social_name: 'Editora Horizonte Digital Ltda',
      company_partner: { name: 'João Lima', cpf: '98765432100', birth: '1980-05-05' },
    });
    expect(user.type).toBe('company');
    const said = warnings(logger).filter((m) => m.includes('company_partner.cpf'));
    expect(said).toHaveLength(1);
    expect(said[0]).not.toContain('98765432100');
  });

  it('sends a person update carrying both tax ids without demanding the company fields, and warns', async () => {
    const { mock, logger, seller } = setup('person');
    // Both tax ids mix the two variants: a compile error in TypeScript, still sent from JavaScript.
    const params: Record<string, unknown> = {
      name: 'Maria Aparecida Souza',
      address,
      cpf: '529.982.247-25',
      cnpj: '11.222.333/0001-81',
      birth: '1988-04-12',
    };
    const mixed = params as unknown as UserUpdateParams;
    await expect(seller.users.update(mixed)).resolves.toMatchObject({ type: 'person' });
    await seller.users.update(mixed);
    expect(mock.requests.filter((r) => r.path === '/users/update')).toHaveLength(2);
    const said = warnings(logger).filter((m) => m.includes('both cpf and cnpj'));
    expect(said).toHaveLength(1);
  });
});
