import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import document from '../../docs/openapi.json' with { type: 'json' };
import { sellerOnKit } from './kit-seller';

/**
 * The other half of the contract: what the SDK sends as a JSON body validates against the
 * request schema docs/openapi.json gives that operation, so a client generated from the document
 * and the SDK send the same thing.
 */
const ID = 'openapi.json';
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats(ajv);
ajv.addSchema(document, ID);
const segment = (text: string) => text.replaceAll('~', '~0').replaceAll('/', '~1');

function requestProblems(method: string, template: string, body: unknown): string[] {
  const pointer = `${ID}#/paths/${segment(template)}/${method}/requestBody/content/application~1json/schema`;
  const validate = ajv.getSchema(pointer);
  if (!validate) return [`no request schema at ${pointer}`];
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message}`);
}

describe('what the SDK sends validates against docs/openapi.json', () => {
  it('on every JSON operation of spec §4, its nested and nullable fields included', async () => {
    const { mock, client, seller: person } = sellerOnKit('person');
    const company = client.forUser(mock.sellers.company.publicToken);
    const { recurring } = mock.products;
    await person.offers.update(recurring.hash, recurring.offerCode, {
      name: 'Plano',
      price: 4990,
      type_of_charge: 'recurring',
      allow_pix_recurring: true,
      pix_recurring_frequency: 'monthly',
      pix_recurring_authorization_type: 'monthly_auth_monthly_retry',
      credit_card_installments_options: [1, 12],
      affiliates_subscription_percentage: 12.5,
      subscription: { trial_days: 7, max_charges: 12 },
    });
    await person.refunds.request(mock.transactions.refundable[0]!, {
      reason: 'Pedido do comprador',
      observation: 'x',
      fraud_confirmed: false,
      cancel_subscription: true,
    });
    await person.statements.export({
      format: 'csv',
      filter: { betweenDates: { start: '2026-01-01', end: '2026-01-31' } },
    });
    await person.anticipations.confirm(mock.anticipations.confirmable[0]!, { scenario: 'above' });
    await company.bankAccounts.update(mock.bankAccounts.bank, {
      holder_name: 'Empresa',
      receiver_type: 'pix',
      pix_key: null,
      bank_code: '341',
    });
    const templates: [RegExp, string][] = [
      [/^\/products\/[^/]+\/offers\/[^/]+$/, '/products/{product_hash}/offers/{offer_code}'],
      [/^\/financial\/refund\/[^/]+$/, '/financial/refund/{transaction_hash}'],
      [
        /^\/financial\/account-statement\/export-report$/,
        '/financial/account-statement/export-report',
      ],
      [
        /^\/financial\/anticipation\/confirm\/[^/]+$/,
        '/financial/anticipation/confirm/{anticipation_hash}',
      ],
      [/^\/users\/bank-accounts\/[^/]+$/, '/users/bank-accounts/{account_hash}'],
    ];
    const checked = mock.requests
      .filter((request) => request.method !== 'GET' && request.path !== '/auth')
      .map((request) => {
        const template =
          templates.find(([pattern]) => pattern.test(request.path))?.[1] ?? request.path;
        expect(typeof request.body).toBe('object');
        return {
          template,
          problems: requestProblems(request.method.toLowerCase(), template, request.body),
        };
      });
    expect(checked.map((entry) => entry.template)).toEqual(
      templates.map(([, template]) => template),
    );
    expect(checked.filter((entry) => entry.problems.length > 0)).toEqual([]);
    // The check bites: a value outside the document's enum is a problem.
    const confirm = '/financial/anticipation/confirm/{anticipation_hash}';
    expect(requestProblems('post', confirm, { scenario: 'sideways' })).not.toEqual([]);
  });
});
