// The multipart body of a call whose params are sent as a form, as it travels
// (src/core/transport/multipart.ts): nested fields in bracket form (`address[zip_code]`,
// `phones[0][number]`), booleans as `1`/`0`, files as binary parts. OpenAPI 3.1 has no way to say
// "bracket form" of a nested object in multipart (a generator would send it as one JSON part,
// which a Laravel service does not read as fields), so the document lists the flat names. An
// array's items, whose count is open, are named by pattern (`phones[<n>][number]`).

/** The component a `$ref` points at, or the schema itself. */
const resolve = (schema, schemas) =>
  schema?.$ref ? schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;

/** A leaf as it travels: a boolean is the text `1` or `0`; anything else as described. */
function leaf(schema) {
  if (schema.type !== 'boolean') return schema;
  const { type: _boolean, default: value, ...rest } = schema;
  const text = (flag) => (flag ? '1' : '0');
  return {
    ...rest,
    type: 'string',
    enum: ['1', '0'],
    ...(value === undefined ? {} : { default: text(value) }),
  };
}

/** `phones[<n>][number]` as the pattern that names every item's field. */
const patternOf = (name) =>
  `^${name.replace(/[[\]]/g, (c) => `\\${c}`).replaceAll('<n>', '\\d+')}$`;

/**
 * The flat form of the params component `schema` (JSON Schema, `$ref`s into `schemas`): one
 * property per field as it travels, required where the field and every object above it are.
 */
export function formSchema(schema, schemas) {
  const out = { type: 'object', properties: {}, patternProperties: {}, required: [] };
  const walk = (node, name, required) => {
    const resolved = resolve(node, schemas);
    if (resolved?.type === 'object' && resolved.properties) {
      for (const [key, child] of Object.entries(resolved.properties)) {
        const inner = required && (resolved.required ?? []).includes(key);
        walk(child, name === undefined ? key : `${name}[${key}]`, inner);
      }
    } else if (resolved?.type === 'array' && resolved.items) {
      walk(resolved.items, `${name}[<n>]`, false);
    } else if (name.includes('<n>')) {
      out.patternProperties[patternOf(name)] = leaf(resolved);
    } else {
      out.properties[name] = leaf(resolved);
      if (required) out.required.push(name);
    }
  };
  walk(schema, undefined, true);
  if (Object.keys(out.patternProperties).length === 0) delete out.patternProperties;
  return {
    description:
      'The fields as they travel: nested ones in bracket form (`address[zip_code]`, `phones[0][number]`), booleans as `1` or `0`, files as binary parts. What each item of an array requires is said on its params component (`x-sdk-params`).',
    'x-assumption':
      'Spec §4.1 says multipart/form-data and gives nested objects and arrays; how they and booleans travel in a form is not shown: bracket names and 1/0, as a Laravel service reads a form (docs/assumptions.md, multipart encoding).',
    ...out,
    additionalProperties: schema.additionalProperties ?? {},
    // The component's rules across fields (cross-field.mjs) name top-level text fields, which
    // travel under their own names and as they are: they hold on the form as written.
    ...(schema.allOf ? { allOf: schema.allOf } : {}),
  };
}
