import { APIResource } from './resource';

/** Refunds of transactions: request (asynchronous), list, status (spec §4.2, §4.3). */
export class Refunds extends APIResource {}
