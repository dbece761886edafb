import type { RequestOptions } from '../core/options';
import { listPages, type PagePromise, pageContent } from '../core/pagination';
import { hashOrContent } from '../core/pagination/guards';
import type { APIPromise } from '../core/transport/api-promise';
import { route } from '../core/transport/path';
import {
  type Anticipation,
  type AnticipationConfirmation,
  AnticipationConfirmationSchema,
  type AnticipationConfirmParams,
  AnticipationConfirmParamsSchema,
  type AnticipationListParams,
  AnticipationListParamsSchema,
  AnticipationListResponseSchema,
} from '../schemas/anticipation';
import { envelopedOrBare } from '../schemas/response-fields';
import { APIResource } from './resource';

// The confirm answer is read from the envelope's `data` when there is one, else bare (assumptions.ts).
const confirmAnswerSchema = envelopedOrBare(AnticipationConfirmationSchema);

/** Balance anticipations: confirm one, list the history (spec §4.7, §4.8). */
export class Anticipations extends APIResource {
  /**
   * Confirms a previously calculated anticipation: `POST /financial/anticipation/confirm/{hash}`.
   * Not replayed after a failure the service may have acted on (only after a 429 or a connection
   * that was never made), since a confirmation moves money.
   *
   * @param anticipationHash The hash returned by the anticipation's calculation.
   * @param params `scenario`: `'above'` or `'below'`, the calculated scenario to confirm.
   * @throws {RequestValidationError} `scenario` is missing or not one of the two values.
   * @throws {NotFoundError} no calculated anticipation of this seller has that hash.
   * @throws {APIConnectionError} no answer. Where the request may have reached the service (a
   *   reset, or a time-out: `APIConnectionTimeoutError`), as after an `InternalServerError`, the
   *   confirmation may have been made and was not sent again; the anticipation list is cached for
   *   10 minutes (spec §4.8), so it may not show it yet.
   * @example
   * ```ts
   * const seller = client.forUser(publicToken);
   * const confirmation = await seller.anticipations.confirm('ant_123', { scenario: 'above' });
   * console.log(confirmation.amount, confirmation.status);
   * ```
   */
  confirm(
    anticipationHash: string,
    params: AnticipationConfirmParams,
    options?: RequestOptions,
  ): APIPromise<AnticipationConfirmation> {
    const { field } = this._client.assumptions.anticipationConfirmation;
    return this._client.post(
      route`/financial/anticipation/confirm/${{ anticipationHash }}`,
      {
        operation: 'anticipations.confirm',
        params: {
          value: params,
          schema: AnticipationConfirmParamsSchema,
          sendAs: 'json',
          encode: ({ scenario, ...rest }) => ({ ...rest, [field]: scenario }),
        },
        schema: confirmAnswerSchema,
        // A confirmation moves money: sent again only where the service cannot have acted.
        replay: 'unsent',
      },
      options,
    );
  }

  /**
   * Lists anticipations, newest first: `GET /financial/anticipation` (`page` from 1, `per_page` 1
   * to 100, the service's default 25). The service caches the result for 10 minutes per account and
   * filter set.
   *
   * @throws {RequestValidationError} `page` or `per_page` out of range, or not a whole number
   *   (nothing is sent).
   * @example
   * ```ts
   * for await (const anticipation of seller.anticipations.list({ per_page: 100 })) {
   *   console.log(anticipation.created_at, anticipation.net_value);
   * }
   * ```
   */
  list(params: AnticipationListParams = {}, options?: RequestOptions): PagePromise<Anticipation> {
    return listPages(
      params,
      { maxPage: Number.POSITIVE_INFINITY, key: hashOrContent },
      (paramsOfPage, page) =>
        this._client
          .get(
            route`/financial/anticipation`,
            {
              operation: 'anticipations.list',
              params: {
                value: paramsOfPage,
                schema: AnticipationListParamsSchema,
                sendAs: 'query',
              },
              schema: AnticipationListResponseSchema,
            },
            options,
          )
          ._map((data) => pageContent(data.anticipations, data.pagination, page)),
    );
  }
}
