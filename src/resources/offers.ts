import type { RequestOptions } from '../core/options';
import type { APIPromise } from '../core/transport/api-promise';
import { route } from '../core/transport/path';
import {
  type Offer,
  OfferSchema,
  type OfferUpdateParams,
  OfferUpdateParamsSchema,
} from '../schemas/offer';
import { envelopedOrBare } from '../schemas/response-fields';
import { APIResource } from './resource';

// Read bare, as spec §4 shows, or under `data` (`envelopedOrBare` says why).
const offerAnswerSchema = envelopedOrBare(OfferSchema);

/** Offers of a product: prices, payment methods, installments, commissions, subscription and freight (spec §4.6). */
export class Offers extends APIResource {
  /**
   * Updates an offer: `PUT /products/{productHash}/offers/{offerCode}`. Every documented limit is
   * checked first (price 0 to 99 999 999 cents, installments 1 to 36, commissions 1 to 80…), and
   * automatic PIX needs `type_of_charge: 'recurring'` with its frequency and authorization type.
   * Note (spec §4.6): while the operator has not enabled automatic PIX for the producer, the service
   * saves `allow_pix_recurring: false` without an error; check the returned offer's settings.
   *
   * @throws {RequestValidationError} a documented rule is broken (nothing is sent).
   * @throws {NotFoundError} the seller has no such product, or the product no such offer.
   * @throws {UnprocessableEntityError} the service refused fields (see `fieldErrors`), such as a
   *   rule that depends on the stored product: `quantity_items` and `freight` of a physical one.
   * @example
   * ```ts
   * const seller = client.forUser(publicToken);
   * const offer = await seller.offers.update('prd_123', 'off_456', {
   *   price: 19_900,
   *   allow_pix: true,
   *   allow_credit_card: true,
   *   credit_card_installments_options: [1, 3, 6, 12],
   * });
   * console.log(offer.price); // 19900
   * ```
   */
  update(
    productHash: string,
    offerCode: string,
    params: OfferUpdateParams,
    options?: RequestOptions,
  ): APIPromise<Offer> {
    return this._client.put(
      route`/products/${{ productHash }}/offers/${{ offerCode }}`,
      {
        operation: 'offers.update',
        params: { value: params, schema: OfferUpdateParamsSchema, sendAs: 'json' },
        schema: offerAnswerSchema,
      },
      options,
    );
  }
}
