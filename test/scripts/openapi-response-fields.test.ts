import { describe, expect, it } from 'vitest';
import { accepts, components, type Json } from '../helpers/openapi-document';

/**
 * docs/openapi.json's answers read as a partner's generator reads them: a field the spec gives as
 * an integer (cents, days, counts, page numbers) must be `integer` in the document, so that a
 * client generated in a typed language reads it into an integer type, not a float; a timestamp the
 * spec gives as ISO 8601 is a `date-time`, and one in another format stays a plain string.
 */

/** [component, fields the spec types `integer`], section by section. */
const INTEGERS: [string, string[]][] = [
  ['Phone', ['id']], // §2.3
  ['Product', ['category_id', 'refund_deadline']], // §2.5
  [
    'Offer', // §2.6
    [
      'price',
      'fake_initial_price',
      'quantity_items',
      'bank_slip_days_due',
      'bank_slip_installments_limit',
    ],
  ],
  [
    'OfferSubscription', // §2.7
    ['trial_days', 'first_charge_price', 'extension_length', 'max_charges', 'max_charges_attempts'],
  ],
  [
    'OfferFreight', // §2.8
    ['preparation_day', 'start_day', 'end_day', 'pac_fallback_end_day', 'sedex_fallback_end_day'],
  ],
  ['Anticipation', ['amount', 'fee', 'net_value']], // §2.11
  ['AnticipationConfirmation', ['amount']], // §2.11, §4.7
  ['AnticipationPagination', ['current_page', 'from', 'per_page', 'to', 'total', 'last_page']], // §2.13
  ['ProductListMeta', ['current_page', 'last_page', 'per_page', 'total']], // §2.13
];

/** [component, field, the values the spec gives for a set it calls open or does not close]. */
const OPEN_SETS: [string, string, string[]][] = [
  ['User', 'type', ['person', 'company']], // §2.1
  ['User', 'company_type', ['mei', 'simple', 'presumed', 'real']], // §2.1
  ['Phone', 'type', ['whatsapp', 'mobile', 'landline', 'work']], // §2.3: "kinds seen"
  ['PhoneParams', 'type', ['whatsapp', 'mobile', 'landline', 'work']], // §2.3, §4.1
  ['BankAccount', 'receiver_type', ['pix', 'bank']], // §2.4, §6.2: more in events
  ['BankAccount', 'status', ['approved', 'pending', 'reproved']], // §2.4
  ['Product', 'type', ['course', 'ebook', 'physical']], // §2.5
  [
    'Product', // §2.5
    'status',
    ['draft', 'pre-approved', 'approved', 'pending', 'pending-correction', 'reproved'],
  ],
  ['Product', 'affiliate_commission_type', ['first', 'last', 'multi']], // §2.5
  ['Offer', 'type_of_charge', ['one-time', 'recurring']], // §2.6
  ['OfferSubscription', 'interval', ['weekly']], // §2.7: "one value seen"
  ['OfferFreight', 'type', ['shipping_company']], // §2.8: "one value seen"
  ['Refund', 'status', ['requested', 'success', 'completed', 'failed']], // §2.9, §3
  ['StatementExport', 'status', ['processing']], // §2.10
  ['Anticipation', 'status', ['approved']], // §2.11
  ['FeeTierChange', 'action', ['create', 'update', 'delete']], // §2.12
  ['SubscriptionEndedPayload', 'end_reason', ['completed', 'delinquency']], // §6.1
  ['SubscriptionCommissionItem', 'type', ['producer', 'affiliate']], // §6.1
];

describe('docs/openapi.json answers', () => {
  it.each(INTEGERS)(
    '%s: the fields the spec gives as integers are integers',
    (component, fields) => {
      for (const field of fields) {
        expect(accepts(component, field, 12), `${component}.${field} 12`).toBe(true);
        expect(accepts(component, field, 12.5), `${component}.${field} 12.5`).toBe(false);
      }
    },
  );

  it('gives the offer installment options as integers (§2.6)', () => {
    expect(accepts('Offer', 'credit_card_installments_options', [1, 12])).toBe(true);
    expect(accepts('Offer', 'credit_card_installments_options', [1.5])).toBe(false);
  });

  it('keeps the fields the spec gives as numbers open to fractions', () => {
    const numbers: [string, string][] = [
      ['Offer', 'affiliates_percentage'],
      ['OfferFreight', 'fixed_price'],
      ['OfferFreight', 'weight'],
      ['Product', 'first_click_percentage'],
      ['Refund', 'amount'],
    ];
    expect(numbers.filter(([component, field]) => !accepts(component, field, 12.5))).toEqual([]);
  });

  it('gives the timestamps the spec writes in ISO 8601 as date-time, and no others', () => {
    const iso: [string, string][] = [
      ['Anticipation', 'created_at'], // §2.11: with a UTC offset
      ['AnticipationConfirmation', 'created_at'], // §4.7
      ['FeeTierChange', 'created_at'], // §2.12: with microseconds and Z
      ['WebhookEnvelope', 'created_at'], // §6
      ['WebhookEnvelope', 'updated_at'],
      ['SubscriptionEndedPayload', 'ended_at'], // §6.1
    ];
    for (const [component, field] of iso) {
      expect(accepts(component, field, '2026-03-01T12:00:00.123456Z'), field).toBe(true);
      expect(accepts(component, field, '2026-03-01T09:00:00-03:00'), field).toBe(true);
      expect(accepts(component, field, '01/03/2026 12:00:00'), `${component}.${field}`).toBe(false);
    }
    // §2.5, §2.6, §2.9, §6.1: `YYYY-MM-DD HH:mm:ss` and `DD/MM/YYYY HH:mm:ss` are no date-time.
    expect(accepts('Product', 'created_at', '2026-03-01 12:00:00')).toBe(true);
    expect(accepts('Offer', 'updated_at', '2026-03-01 12:00:00')).toBe(true);
    expect(accepts('Refund', 'created_at', '01/03/2026 12:00:00')).toBe(true);
    expect(accepts('SubscriptionEndedPayload', 'created_at', '2026-03-01 12:00:00')).toBe(true);
  });

  it.each(OPEN_SETS)(
    '%s.%s names the values the spec gives, and takes another',
    (component, field, values) => {
      // An open set: a new value must pass (the SDK reads it), yet a reader of the document, or a
      // client generated from it, should meet the spec's values, not a bare string.
      const properties = components[component]?.properties as Record<string, Json> | undefined;
      const schema = properties?.[field];
      expect(schema?.examples).toEqual(values);
      expect(accepts(component, field, 'a-value-the-spec-does-not-name')).toBe(true);
    },
  );
});
