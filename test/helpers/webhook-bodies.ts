/**
 * Webhook bodies as the service sends them, hand-written from the spec's tables (§6, §6.1, §6.2),
 * not generated from the SDK's schemas, so a wrong schema fails a test instead of agreeing with itself.
 */

export const subscriptionEndedBody = {
  event: 'subscription_ended',
  endpoint: 'https://partner.example.com/webhooks/partner',
  payload: {
    subscription_code: 'sub_7Hq2LmX9',
    status: 'ended',
    ended_at: '2025-03-14T12:30:45.123456Z',
    end_reason: 'completed',
    total_charges: 12,
    product_hash: 'prd_a1b2c3',
    offer_code: 'ofr_monthly',
    buyer: { name: 'Maria Souza', email: 'maria@example.com' },
    commissions: {
      transaction_hash: 'trx_9f8e7d',
      paid_amount: 9700,
      items: [
        {
          type: 'producer',
          amount: 7760,
          user: { code: 'usr_prod1', name: 'Escola Digital', email: 'contato@escola.example' },
        },
        {
          type: 'affiliate',
          amount: 1940,
          user: { code: 'usr_aff1', name: 'João Lima', email: 'joao@example.com' },
        },
      ],
    },
    created_at: '2024-03-14 12:30:45',
    updated_at: '2025-03-14 12:30:45',
  },
  metadata: {
    origin: 'subscriptions',
    request_id: 'req_01HQ8Z3K4M5N6P7Q8R9S',
    correlation_id: null,
  },
  created_at: '2025-03-14T12:30:45.654321Z',
  updated_at: '2025-03-14T12:30:45.654321Z',
};

export const bankAccountUpdatedBody = {
  event: 'bank_account_updated',
  endpoint: 'https://partner.example.com/webhooks/partner',
  payload: {
    code: 'bnk_55aa77',
    bank_code: '341',
    holder_name: 'Maria Souza',
    pix_key: null,
    receiver_type: 'bank',
    branch_number: '0001',
    branch_check_digit: '9',
    account_number: '123456',
    account_check_digit: '7',
    status: 'approved',
    reason: null,
    bank_document: null,
  },
  metadata: {
    origin: 'users',
    request_id: 'req_01HQ8Z3K4M5N6P7Q8R9T',
    correlation_id: 'corr_42',
  },
  created_at: '2025-03-14T12:31:00.000001Z',
  updated_at: '2025-03-14T12:31:00.000001Z',
};

export const bankAccountReprovedBody = {
  ...bankAccountUpdatedBody,
  payload: {
    ...bankAccountUpdatedBody.payload,
    receiver_type: 'checking_account',
    status: 'reproved',
    reason: 'Holder name does not match the tax id',
    bank_document: { url: 'https://files.example.com/doc/77.pdf', type: 'bank_statement' },
  },
};

export const bankAccountDeletedBody = {
  ...bankAccountUpdatedBody,
  event: 'bank_account_deleted',
  payload: {
    ...bankAccountUpdatedBody.payload,
    receiver_type: 'pix',
    pix_key: 'maria@example.com',
  },
};

/** `user_updated`: a known name whose payload the spec does not show. */
export const userUpdatedBody = {
  event: 'user_updated',
  endpoint: 'https://partner.example.com/webhooks/partner',
  payload: {
    code: 'usr_prod1',
    name: 'Escola Digital',
    status: 'active',
    phones: [{ ddi: '55', ddd: '11', number: '912345678', type: 'whatsapp' }],
  },
  metadata: { origin: 'users', request_id: 'req_users_1', correlation_id: null },
  created_at: '2025-03-14T12:32:00.000000Z',
  updated_at: '2025-03-14T12:32:00.000000Z',
};

/** The same event as `base`, under another `request_id`. */
export function withRequestId<T extends { metadata: object }>(
  base: T,
  requestId: string | null,
): T {
  return { ...base, metadata: { ...base.metadata, request_id: requestId } };
}
