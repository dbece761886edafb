// The request rules that tie one field to another (spec §4.1, §4.6), in JSON Schema's words. The
// SDK checks them in code (the `crossFieldRule` of src/schemas/user.ts and offer.ts), which
// `z.toJSONSchema` cannot read; written here, they reach the params components, so that a client
// generated from the document knows them too. test/scripts/openapi-cross-field-rules.test.ts holds
// the document and the SDK's check to the same verdicts, taken from the spec.

/** `field` is sent. */
const sent = (field) => ({ required: [field] });
/** `field` is sent with the value `value`. */
const sentAs = (field, value) => ({ required: [field], properties: { [field]: { const: value } } });

/** A rule: when the body matches `condition`, it must match `consequence` too. */
function rule(description, condition, consequence) {
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's keyword; the object is never awaited.
  return { description, if: condition, then: consequence };
}

/** What a one-time offer may not carry: a flag only as `false`, any other field not at all. */
const RECURRING_ONLY = {
  commission_only_first_installment: { const: false },
  allow_pix_recurring: { const: false },
  affiliates_subscription_percentage: false,
  subscription: false,
  pix_recurring_frequency: false,
  pix_recurring_authorization_type: false,
};

/** Each params component's rules, as its `allOf`. */
export const CROSS_FIELD_RULES = {
  UserUpdateParams: [
    rule(
      // With both tax ids the body names no variant (rule 1): the service chooses by the user's type.
      'A person, told by `cpf` sent without `cnpj`: `birth` is required (spec §4.1).',
      { ...sent('cpf'), not: sent('cnpj') },
      sent('birth'),
    ),
    rule(
      'A company, told by `cnpj` sent without `cpf`: `company_type` and `social_name` are required (spec §4.1).',
      { ...sent('cnpj'), not: sent('cpf') },
      { required: ['company_type', 'social_name'] },
    ),
  ],
  OfferUpdateParams: [
    rule(
      'Automatic PIX on: `pix_recurring_frequency` and `pix_recurring_authorization_type` are required (spec §4.6).',
      sentAs('allow_pix_recurring', true),
      { required: ['pix_recurring_frequency', 'pix_recurring_authorization_type'] },
    ),
    rule(
      'A one-time offer: the fields of recurring offers only (automatic PIX, `subscription`, `commission_only_first_installment`, `affiliates_subscription_percentage`) are left out, or a flag sent as `false` (spec §4.6).',
      sentAs('type_of_charge', 'one-time'),
      { properties: RECURRING_ONLY },
    ),
    rule(
      'A recurring offer: `allow_bank_slip_installments`, for non-recurring offers only, is left out or `false` (spec §4.6).',
      sentAs('type_of_charge', 'recurring'),
      { properties: { allow_bank_slip_installments: { const: false } } },
    ),
  ],
};

/** The fields a rule names: each must be a field of its component, so a rename cannot leave it behind. */
function namedFields(written) {
  const names = new Set();
  const walk = (node) => {
    if (!node || typeof node !== 'object') return;
    for (const name of node.required ?? []) names.add(name);
    for (const name of Object.keys(node.properties ?? {})) names.add(name);
    for (const key of ['if', 'then', 'not']) walk(node[key]);
  };
  walk(written);
  return names;
}

/** Adds each component's cross-field rules to it, as `allOf`; throws for a field it does not have. */
export function addCrossFieldRules(components) {
  for (const [name, rules] of Object.entries(CROSS_FIELD_RULES)) {
    const schema = components[name];
    for (const field of rules.flatMap((rule) => [...namedFields(rule)])) {
      if (!schema?.properties?.[field]) {
        throw new Error(`openapi: a cross-field rule of ${name} names ${field}, which it lacks`);
      }
    }
    schema.allOf = rules;
  }
}
