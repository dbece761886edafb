/**
 * A seller's address as the spec's user fields write it (§2.1), valid by every rule the SDK and
 * the kit check: the one address tests send when an address is not what they test.
 */
export const paulistaAddress = {
  zip_code: '01310-100',
  city: 'São Paulo',
  state: 'SP',
  country: 'Brasil',
  street: 'Av. Paulista',
  street_number: '1000',
  neighborhood: 'Bela Vista',
};
