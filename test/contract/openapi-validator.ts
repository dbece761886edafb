/**
 * Checks an answer of the testing kit against docs/openapi.json with Ajv (JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1) over the document's own schemas: the operation is looked up by method
 * and path template, the status must be documented (or fall under `default`), and the JSON body
 * must match that response's schema. Nothing here describes a shape: the document does.
 */

import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import document from '../../docs/openapi.json' with { type: 'json' };

const ID = 'openapi.json';
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats(ajv);
ajv.addSchema(document, ID);

type Json = Record<string, unknown>;
const pointerSegment = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

/** The JSON pointer of the schema of `template`'s `method` answer with `status`, or a problem. */
function schemaPointer(method: string, template: string, status: number): string {
  const operation = ((document.paths as Json)[template] as Json | undefined)?.[method] as
    | { responses: Json }
    | undefined;
  if (!operation)
    throw new Error(`the document has no operation ${method.toUpperCase()} ${template}`);
  const key = String(status) in operation.responses ? String(status) : 'default';
  const response = operation.responses[key] as { $ref?: string } | undefined;
  if (!response)
    throw new Error(`${method.toUpperCase()} ${template}: ${status} is not documented`);
  const base = response.$ref
    ? response.$ref
    : `#/paths/${pointerSegment(template)}/${method}/responses/${key}`;
  return `${ID}${base}/content/application~1json/schema`;
}

/**
 * The problems of `response` (already read as `body`) as an answer to `method template`: an
 * empty list when the document describes it.
 */
export function contractProblems(
  method: string,
  template: string,
  response: Response,
  body: unknown,
): string[] {
  const pointer = schemaPointer(method.toLowerCase(), template, response.status);
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('application/json')) return [`content-type ${type} is not documented`];
  const validate = ajv.getSchema(pointer);
  if (!validate) return [`no schema at ${pointer}`];
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message}`);
}
