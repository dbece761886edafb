import { APIResource } from './resource';

/** Balance anticipations: confirm one, list the history (spec §4.7, §4.8). */
export class Anticipations extends APIResource {}
