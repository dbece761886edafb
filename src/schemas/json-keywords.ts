/**
 * What a schema checks, in JSON Schema's words (`maxLength`, `pattern`, `enum`, `minimum`,
 * `type: 'integer'`), kept beside the schema. The SDK writes its request rules as zod checks of its
 * own (request-rules.ts), which `z.toJSONSchema` cannot read; each rule builder records here what
 * it checks, so that the OpenAPI document (scripts/openapi/document.mjs) states the same limits a
 * partner's generated client must hold. Nothing reads it while a call runs.
 *
 * @module
 */

/** JSON Schema keywords, as the OpenAPI document writes them. */
export type JsonKeywords = Record<string, unknown>;

const recorded = new WeakMap<object, JsonKeywords>();

/**
 * Records `keywords` as what `schema` checks (added to any recorded before) and returns the schema.
 *
 * @example
 * ```ts
 * const name = withKeywords(text({ min: 3 }), { minLength: 3 });
 * ```
 */
export function withKeywords<T extends object>(schema: T, keywords: JsonKeywords): T {
  recorded.set(schema, { ...recorded.get(schema), ...keywords });
  return schema;
}

/**
 * The JSON Schema keywords recorded for `schema`, if any.
 *
 * @example
 * ```ts
 * jsonKeywords(integer({ min: 1 })); // { type: 'integer', minimum: 1 }
 * ```
 */
export function jsonKeywords(schema: object): JsonKeywords | undefined {
  return recorded.get(schema);
}
