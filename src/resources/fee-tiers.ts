import { APIResource } from './resource';

/** History of changes to fee tiers (spec §4.11). */
export class FeeTiers extends APIResource {}
