/**
 * Change an offer's price and payment methods (`offers.update`): every documented limit is checked
 * before the request leaves, so a mistake costs no round trip.
 *
 * Runs against the embedded mock API; against a real service it needs `EXAMPLE_PRODUCT_HASH` and
 * `EXAMPLE_OFFER_CODE`, the offer it changes (see `support/setup.ts`).
 */

import { RequestValidationError } from 'partner-sdk';
import { brl, connect, say, step } from './support/setup';

const example = await connect('Update an offer');
try {
  // Reading the catalogue needs only the client token; changing an offer acts for its seller.
  const { client, seller } = example;
  const productHash = example.input('EXAMPLE_PRODUCT_HASH', (mock) => mock.products.course.hash);
  const offerCode = example.input('EXAMPLE_OFFER_CODE', (mock) => mock.products.course.offerCode);

  step('The product the offer belongs to');
  const product = await client.products.retrieve(productHash);
  say(`${product.hash}: ${product.name} (${product.type})`);

  step('New price, PIX and credit card in up to 12 installments');
  const offer = await seller.offers.update(productHash, offerCode, {
    price: 19_900,
    fake_initial_price: 29_700,
    allow_pix: true,
    allow_credit_card: true,
    credit_card_installments_options: [1, 3, 6, 12],
  });
  say(
    `offer ${offer.code} "${offer.name}": ${brl(offer.price)} (was ${brl(offer.fake_initial_price)})`,
  );
  say(`pix ${offer.allow_pix ? 'on' : 'off'}, card ${offer.allow_credit_card ? 'on' : 'off'}`);
  say(`installments: ${offer.credit_card_installments_options?.join(', ')}`);

  step('48 installments break the documented limit (1 to 36): refused before sending');
  try {
    await seller.offers.update(productHash, offerCode, {
      credit_card_installments_options: [1, 48],
    });
  } catch (error) {
    if (!(error instanceof RequestValidationError)) throw error;
    for (const issue of error.issues) say(`${issue.path.join('.')}: ${issue.message}`);
  }
} finally {
  await example.close();
}
