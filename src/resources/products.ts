import { APIResource } from './resource';

/** Products: read one, list them page by page (spec §4.9, §4.10). */
export class Products extends APIResource {}
