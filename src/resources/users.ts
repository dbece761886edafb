import type { RequestOptions } from '../core/options';
import type { APIPromise } from '../core/transport/api-promise';
import { route } from '../core/transport/path';
import { envelopedOrBare } from '../schemas/response-fields';
import {
  profileSuspicions,
  type User,
  UserSchema,
  type UserUpdateParams,
  UserUpdateParamsSchema,
} from '../schemas/user';
import { APIResource } from './resource';

// Read bare, as spec §4 shows, or under `data` (`envelopedOrBare` says why).
const userAnswerSchema = envelopedOrBare(UserSchema);

/**
 * The seller's profile (spec §4.1). Only on the seller client (`client.forUser(publicToken).users`),
 * since the service requires the seller's bearer token for it.
 */
export class Users extends APIResource {
  /**
   * Updates the seller's profile: `POST /users/update` as multipart, with an optional avatar file.
   * The variant follows the tax id: with `cpf` the person rules apply (`birth` required), with `cnpj`
   * the company rules (`company_type`, `social_name` required). Nested fields travel in bracket
   * form (`address[zip_code]`), booleans as `1`/`0`. Retried only without `company_partner`, which
   * the service refuses once defined.
   *
   * @throws {RequestValidationError} a documented rule is broken (nothing is sent).
   * @throws {BadRequestError} the service found the request invalid (spec §4.1).
   * @throws {UnprocessableEntityError} the service refused fields (see `fieldErrors`), such as a
   *   rule that depends on what it holds or on its clock: `company_partner` sent once defined, a
   *   person under 18 without `is_emancipated` and `emancipated_document`.
   * @example
   * ```ts
   * import { toFile } from 'partner-sdk';
   * const user = await client.forUser(publicToken).users.update({
   *   name: 'Ana Souza',
   *   cpf: '123.456.789-09',
   *   birth: '1990-04-01',
   *   address: {
   *     zip_code: '01310-100', street: 'Av. Paulista', street_number: '1000',
   *     neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', country: 'Brasil',
   *   },
   *   phones: [{ ddd: '11', number: '912345678', type: 'mobile' }],
   *   avatar: await toFile(avatarBytes, 'avatar.png', { type: 'image/png' }),
   * });
   * ```
   */
  update(params: UserUpdateParams, options?: RequestOptions): APIPromise<User> {
    return this._client.post(
      route`/users/update`,
      {
        operation: 'users.update',
        params: {
          value: params,
          schema: UserUpdateParamsSchema,
          sendAs: 'form',
          suspicions: profileSuspicions,
        },
        schema: userAnswerSchema,
        // A profile update states the whole profile, safe to send twice, but company_partner is
        // accepted once and refused after: a replay could turn success into a 422.
        replay: params?.company_partner === undefined ? 'always' : 'never',
      },
      options,
    );
  }
}
