/**
 * docs/openapi.json as a partner's generator reads it: one Ajv (JSON Schema 2020-12, the dialect
 * of OpenAPI 3.1) holding the document, so a test can ask whether a value passes a field's schema.
 */

import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import document from '../../docs/openapi.json' with { type: 'json' };

/** A JSON object as the document writes it. */
export type Json = Record<string, unknown>;

/** An Ajv that resolves `openapi.json#/…` references into the document. */
export const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats(ajv);
ajv.addSchema(document, 'openapi.json');

/** The document's component schemas, by name. */
export const components = document.components.schemas as Record<string, Json>;

/** Whether `value` passes the schema of `component.field`; throws for a field the document lacks. */
export function accepts(component: string, field: string, value: unknown): boolean {
  const properties = components[component]?.properties as Json | undefined;
  if (!properties?.[field]) throw new Error(`${component} has no field ${field}`);
  const pointer = `openapi.json#/components/schemas/${component}/properties/${field}`;
  return ajv.validate({ $ref: pointer }, value);
}
