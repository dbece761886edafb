import { APIResource } from './resource';

/** Profile of the seller (spec §4.1): multipart update with files. Only on the seller client (`client.forUser(publicToken).users`), since the service requires the seller's bearer token. */
export class Users extends APIResource {}
