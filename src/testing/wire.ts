/**
 * Shapes of the records the mock keeps, in the wire format of the spec's tables (snake_case, the
 * spec's own field names). Written by hand from the spec, not inferred from the SDK's schemas.
 *
 * @module
 */

/** Spec §2.2. */
export interface WireAddress {
  zip_code: string;
  city: string;
  state: string;
  country: string;
  street: string;
  street_number: string;
  neighborhood: string;
  complement?: string | null;
  is_default?: boolean;
}

/** Spec §2.3. */
export interface WirePhone {
  id: number;
  ddi: string;
  ddd: string;
  type: string;
  number: string;
}

/** Spec §2.1. */
export interface WireUser {
  name: string;
  code: string;
  status: string;
  is_approved: boolean;
  is_registration_completed: boolean;
  type: 'person' | 'company';
  email: string;
  public_token: string | null;
  avatar: string | null;
  address: WireAddress | null;
  phones: WirePhone[];
  about?: string | null;
  website?: string | null;
  recovery_email?: string | null;
  nickname?: string | null;
  birth?: string | null;
  is_emancipated?: boolean | null;
  cpf?: string | null;
  cnpj?: string | null;
  company_type?: string | null;
}

/** Spec §2.4. */
export interface WireBankAccount {
  code: string;
  holder_name: string;
  receiver_type: string;
  pix_key: string | null;
  bank_code: string;
  branch_number: string;
  branch_check_digit: string;
  account_number: string;
  account_check_digit: string;
  status: 'approved' | 'pending' | 'reproved';
}

/** Spec §2.7. */
export interface WireSubscription {
  interval?: string;
  trial_days?: number;
  trial_days_text?: boolean;
  first_charge_price?: number;
  is_extension?: boolean;
  extension_length?: number;
  max_charges?: number;
  max_charges_attempts?: number;
}

/** Spec §2.8. */
export interface WireFreight {
  type?: string;
  preparation_day?: number;
  start_day?: number;
  end_day?: number;
  fixed_price?: number;
  free_states?: string[];
  blocked_states?: string[];
  is_pac?: boolean;
  is_sedex?: boolean;
  pac_fallback_price?: number;
  pac_fallback_end_day?: number;
  sedex_fallback_price?: number;
  sedex_fallback_end_day?: number;
  zip_code?: string;
  weight?: number;
  length?: number;
  width?: number;
  height?: number;
}

/** Spec §2.6, as returned. */
export interface WireOffer {
  code: string;
  name: string;
  type_of_charge: 'one-time' | 'recurring';
  price: number;
  allow_credit_card: boolean;
  credit_card_installments_options: number[];
  allow_pix: boolean;
  allow_bank_slip: boolean;
  created_at: string;
  updated_at: string;
  fake_initial_price: number | null;
  quantity_items: number | null;
  allow_bank_slip_installments: boolean;
  bank_slip_days_due: number;
  bank_slip_installments_limit: number;
  allow_affiliates: boolean;
  affiliates_percentage: number | null;
  affiliates_subscription_percentage: number | null;
  commission_only_first_installment: boolean;
  producer_pays_interest: boolean;
  is_free: boolean;
  transfer_fixed_fee_to_buyer: boolean;
  subscription: WireSubscription | null;
  freight: WireFreight | null;
}

/** Settings an offer update accepts but the offer response leaves out (spec §2.6). */
export interface HiddenOfferSettings {
  allow_pix_recurring: boolean;
  pix_recurring_frequency: string | null;
  pix_recurring_authorization_type: string | null;
  custom_commission: boolean;
  allow_smart_installment: boolean;
}

/** Spec §2.5. */
export interface WireProduct {
  hash: string;
  name: string;
  category_id: number;
  description: string;
  type: 'course' | 'ebook' | 'physical';
  support_email: string;
  support_phone: string;
  refund_deadline: 7 | 15 | 30;
  status: string;
  created_at: string;
  updated_at: string;
  soft_descriptor: string;
  image_stock: string | null;
  cover_picture: string | null;
  is_active: boolean;
  has_auto_affiliation: boolean;
  allow_affiliation: boolean;
  affiliate_commission_type: 'first' | 'last' | 'multi';
  first_click_percentage: number | null;
  last_click_percentage: number | null;
  metadata: {
    links: {
      sales_page_url: string | null;
      sales_page_absence_reason: string | null;
      page_released: string | null;
      without_sales_page: boolean;
    };
  };
}

/** Spec §2.9. */
export interface WireRefund {
  hash: string;
  transaction_hash: string;
  status: string;
  amount: number;
  observation: string;
  created_at: string;
  updated_at: string;
}

/** Spec §2.10. */
export interface WireExport {
  hash: string;
  status: string;
  url: string | null;
}

/** Spec §2.11. */
export interface WireAnticipation {
  hash: string | null;
  status: string;
  amount: number;
  fee: number;
  net_value: number;
  created_at: string;
}

/** Spec §2.12. */
export interface WireFeeTierChange {
  action: 'create' | 'update' | 'delete';
  old: Record<string, number> | null;
  new: Record<string, number> | null;
  observation: string;
  changed_by: { name: string; email: string };
  created_at: string;
}
