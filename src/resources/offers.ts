import { APIResource } from './resource';

/** Offers of a product: prices, payment methods, installments, commissions, subscription and freight (spec §4.6). */
export class Offers extends APIResource {}
