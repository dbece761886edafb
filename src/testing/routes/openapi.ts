/**
 * `GET /openapi.json`: the API's OpenAPI 3.1 document (docs/openapi.json, built from the SDK's
 * schemas by `npm run openapi`), so tools pointed at the kit (mock servers, client generators,
 * contract tests) can read it where they call.
 *
 * @module
 */

import document from '../../../docs/openapi.json' with { type: 'json' };
import { json } from '../respond';
import type { Route } from '../router';

/** The document, to anyone: no credentials, as a tool fetching a spec sends none. */
export const openApiRoute: Route = {
  method: 'GET',
  pattern: '/openapi.json',
  auth: 'none',
  handle: () => json(document),
};
