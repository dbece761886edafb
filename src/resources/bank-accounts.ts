import { APIResource } from './resource';

/** Bank accounts of the seller (spec §4.5). */
export class BankAccounts extends APIResource {}
