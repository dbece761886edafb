/**
 * The contract of `sdk-and-kit-agree.test.ts` on generated values (fast-check): for each value,
 * the SDK refuses it before sending (`RequestValidationError`) exactly when the testing kit, sent
 * the same value raw, answers 422 on that field. The kit models the service's Laravel rules; the
 * SDK's request schemas are written apart from it (src/schemas vs src/testing/validation).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConflictError, RequestValidationError, UnprocessableEntityError } from '../../src';
import { assertWithinBudget } from '../helpers/property-budget';
import { toForm } from './form';
import { sellerOnKit } from './kit-seller';

/** `'refused'` when the call was refused on `field`, `'accepted'` when its data passed. */
async function verdict(call: Promise<unknown>, field: string): Promise<string> {
  const outcome = await call.then(
    () => 'accepted',
    (error: unknown) => error,
  );
  // A 409 is the export already running: the request passed validation.
  if (outcome === 'accepted' || outcome instanceof ConflictError) return 'accepted';
  if (outcome instanceof RequestValidationError) {
    expect(outcome.issues.map((i) => i.path.join('.'))).toContain(field);
    return 'refused';
  }
  expect(outcome).toBeInstanceOf(UnprocessableEntityError);
  expect(Object.keys((outcome as UnprocessableEntityError).fieldErrors)).toContain(field);
  return 'refused';
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** A day around the real ones: days 0–32, months 0–13, years around leap-year edges. */
const wireDay = fc
  .tuple(
    fc.integer({ min: 0, max: 32 }),
    fc.integer({ min: 0, max: 13 }),
    fc.constantFrom(1900, 1999, 2000, 2023, 2024, 2025, 2100),
  )
  .map(([d, m, y]) => `${pad(d, 2)}/${pad(m, 2)}/${pad(y, 4)}`);

/** What Laravel's `TrimStrings` removes: spaces, and the zero-width space, marks and NUL JavaScript's `trim` keeps. */
const space = fc
  .array(fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', '\u200b', '\u200e', '\0', '\u0085'), {
    maxLength: 3,
  })
  .map((chars) => chars.join(''));

describe('the SDK and the kit agree on generated values', () => {
  it('filter.betweenDates given as the wire string: real days, in either order', async () => {
    const { seller } = sellerOnKit();
    await assertWithinBudget(
      fc.asyncProperty(
        wireDay,
        fc.oneof(wireDay, fc.constant('')),
        space,
        space,
        async (start, end, before, after) => {
          const betweenDates = `${before}${start}${end ? `,${end}` : ''}${after}`;
          const body = { format: 'csv', filter: { betweenDates } };
          const field = 'filter.betweenDates';
          const sdk = await verdict(seller.statements.export(body), field);
          const raw = seller.request({
            method: 'POST',
            path: '/financial/account-statement/export-report',
            body,
          });
          expect(await verdict(raw, field), betweenDates).toBe(sdk);
        },
      ),
      { numRuns: 300, minRuns: 20, budgetMs: 6_000 },
    );
  }, 30_000);

  it('strings are judged trimmed, and a blank one counts as missing', async () => {
    const { seller } = sellerOnKit();
    const base = {
      name: 'Maria Aparecida Souza',
      address: {
        zip_code: '01310-100',
        city: 'São Paulo',
        state: 'SP',
        country: 'Brasil',
        street: 'Avenida Paulista',
        street_number: '1000',
        neighborhood: 'Bela Vista',
      },
      cpf: '529.982.247-25',
      birth: '1988-04-12',
    };
    // Lengths at the limits of `name` (3 to 191) and `address.city` (required, at most 191).
    const core = fc
      .constantFrom(0, 1, 2, 3, 4, 190, 191, 192)
      .chain((n) =>
        fc.constantFrom('a'.repeat(n), `a${' '.repeat(Math.max(n - 2, 0))}a`.slice(0, n)),
      );
    await assertWithinBudget(
      fc.asyncProperty(
        fc.constantFrom('name', 'city', 'nickname', 'complement'),
        space,
        core,
        space,
        async (key, before, text, after) => {
          const value = `${before}${text}${after}`;
          const inAddress = key === 'city' || key === 'complement';
          const params = inAddress
            ? { ...base, address: { ...base.address, [key]: value } }
            : { ...base, [key]: value };
          const field = inAddress ? `address.${key}` : key;
          const sdk = await verdict(seller.users.update(params), field);
          const raw = seller.request({
            method: 'POST',
            path: '/users/update',
            form: toForm(params),
          });
          expect(await verdict(raw, field), JSON.stringify(value)).toBe(sdk);
        },
      ),
      { numRuns: 300, minRuns: 20, budgetMs: 6_000 },
    );
  }, 30_000);
});
