import { APIResource } from './resource';

/** Exports of the financial account statement (spec §4.4). */
export class Statements extends APIResource {}
