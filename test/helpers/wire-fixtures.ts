/**
 * Wire bodies written by hand from the spec's tables (§2, §4), never generated from the SDK's
 * schemas, so a wrong schema fails a test instead of agreeing with itself. Each is a function
 * returning a fresh object, so a test can change one without touching the others.
 */

/** A user as the profile update returns it (spec §2.1 to §2.3). */
export const wireUser = () => ({
  name: 'Ana Souza',
  code: 'usr_8f2k1',
  status: 'active',
  is_approved: true,
  is_registration_completed: true,
  type: 'person',
  email: 'ana@example.com',
  public_token: null,
  avatar: 'https://cdn.partner.test/avatars/usr_8f2k1.png',
  address: {
    zip_code: '01310-100',
    city: 'São Paulo',
    state: 'SP',
    country: 'Brasil',
    street: 'Av. Paulista',
    street_number: '1000',
    neighborhood: 'Bela Vista',
    complement: 'Sala 12',
    is_default: true,
  },
  phones: [{ id: 4411, ddi: '55', ddd: '11', type: 'mobile', number: '912345678' }],
  about: 'Cursos de culinária',
  website: 'https://ana.example.com',
  recovery_email: 'ana.recovery@example.com',
  nickname: 'aninha',
  birth: '1990-04-01',
  is_emancipated: false,
  cpf: '123.456.789-09',
});

/** A bank account (spec §2.4). */
export const wireBankAccount = () => ({
  code: 'acc_77a1',
  holder_name: 'Ana Souza',
  receiver_type: 'pix',
  pix_key: 'ana@example.com',
  bank_code: '341',
  branch_number: '0001',
  branch_check_digit: '9',
  account_number: '123456',
  account_check_digit: '7',
  status: 'pending',
});

/** A product (spec §2.5). */
export const wireProduct = (hash = 'prd_k2j4') => ({
  hash,
  name: 'Curso de Pães',
  category_id: 12,
  description: 'Do fermento ao forno.',
  type: 'course',
  support_email: 'suporte@example.com',
  support_phone: '11912345678',
  refund_deadline: 7,
  status: 'approved',
  created_at: '2024-03-01 10:20:30',
  updated_at: '2024-03-02 08:00:00',
  soft_descriptor: 'PAES ANA',
  image_stock: 'https://cdn.partner.test/warranty.pdf',
  cover_picture: 'https://cdn.partner.test/cover.png',
  is_active: true,
  has_auto_affiliation: false,
  allow_affiliation: true,
  affiliate_commission_type: 'multi',
  first_click_percentage: 40,
  last_click_percentage: 60,
  metadata: {
    links: {
      sales_page_url: 'https://ana.example.com/paes',
      sales_page_absence_reason: '',
      page_released: 'yes',
      without_sales_page: false,
    },
  },
});

/** An offer as its update returns it (spec §2.6 to §2.8). */
export const wireOffer = () => ({
  code: 'off_5521',
  name: 'Plano semanal',
  type_of_charge: 'recurring',
  price: 19900,
  allow_credit_card: true,
  credit_card_installments_options: [1, 3, 6, 12],
  allow_pix: true,
  allow_bank_slip: false,
  created_at: '2024-03-01 10:20:30',
  updated_at: '2024-03-05 09:00:00',
  fake_initial_price: 29900,
  quantity_items: 50,
  allow_bank_slip_installments: false,
  bank_slip_days_due: 3,
  bank_slip_installments_limit: 1,
  allow_affiliates: true,
  affiliates_percentage: 30,
  affiliates_subscription_percentage: 20.5,
  commission_only_first_installment: false,
  producer_pays_interest: false,
  is_free: false,
  transfer_fixed_fee_to_buyer: true,
  subscription: {
    interval: 'weekly',
    trial_days: 7,
    trial_days_text: false,
    first_charge_price: 990,
    is_extension: false,
    extension_length: 0,
    max_charges: 12,
    max_charges_attempts: 3,
  },
  freight: {
    type: 'shipping_company',
    preparation_day: 1,
    start_day: 3,
    end_day: 10,
    fixed_price: 15.9,
    free_states: ['SP'],
    blocked_states: ['AC'],
    is_pac: true,
    is_sedex: false,
    pac_fallback_price: 25.5,
    pac_fallback_end_day: 12,
    sedex_fallback_price: 40,
    sedex_fallback_end_day: 5,
    zip_code: '01310-100',
    weight: 0.5,
    length: 20,
    width: 15,
    height: 5,
  },
});

/** A refund (spec §2.9). */
export const wireRefund = () => ({
  hash: 'rfd_91x',
  transaction_hash: 'tx_abc',
  status: 'requested',
  amount: 199.9,
  observation: 'Cliente pediu',
  created_at: '05/03/2024 14:00:00',
  updated_at: '05/03/2024 14:00:00',
});

/** A statement export (spec §2.10), processing. */
export const wireExport = () => ({ hash: 'exp_33q', status: 'processing', url: null });

/** An anticipation (spec §2.11). */
export const wireAnticipation = (hash: string | null = 'ant_1') => ({
  hash,
  status: 'approved',
  amount: 100000,
  fee: 2500,
  net_value: 97500,
  created_at: '2024-03-05T14:00:00-03:00',
});

/** A fee-tier history record (spec §2.12). */
export const wireFeeTierChange = () => ({
  action: 'update',
  old: { fixed_fee: 249, percentage: 4.99 },
  new: { fixed_fee: 199, percentage: 3.99 },
  observation: 'Faixa de taxa atualizada pelo operador',
  changed_by: { name: 'Operador Um', email: 'operador@partner.test' },
  created_at: '2024-03-05T17:00:00.123456Z',
});

/** The common envelope (spec §2). */
export const envelope = (data: unknown, status = 'success') => ({
  status,
  message: 'Operação realizada com sucesso',
  data,
});
