// Each operation of the document derived from the call its resource method records (calls.mjs):
// path and parameters from the `route` template, request body or query from the params schema
// and its `sendAs`, answers from the response schema (its envelope, `envelopedOrBare`, a schema
// chosen by status, statuses accepted as results), words from the method's TSDoc.

import { formSchema } from './form.mjs';

const json = (schema) => ({ 'application/json': { schema } });
const CONTENT_TYPES = { json: 'application/json', form: 'multipart/form-data' };

/** `productHash` as the spec names it, `product_hash`. */
const snake = (name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The first sentence of a TSDoc text, up to its first colon or full stop. */
function summaryOf(text) {
  const first = text
    ?.split(/[:.](?:\s|$)/)[0]
    ?.replace(/\s+/g, ' ')
    .trim();
  return first ? `${first}.` : undefined;
}

/** Query parameters from the properties of a params component. */
function queryParams(schemas, name) {
  return Object.entries(schemas[name].properties).map(([param, schema]) => ({
    name: param,
    in: 'query',
    required: false,
    ...(schema.description ? { description: schema.description } : {}),
    schema: { ...schema, description: undefined },
  }));
}

/**
 * The response schema for each status of the call: `envelopedOrBare` (it keeps its `bare`), a
 * schema chosen by status (asked for every success status), or one schema; a status the call
 * accepts as a result (`acceptStatus`) answers as 200 does.
 */
function schemasByStatus({ schema, acceptStatus = [] }) {
  const out = {};
  if (typeof schema === 'function' && !schema.bare) {
    // Asked for an answer in the envelope: a choice may let a body without `data` through unchecked.
    const chosen = (status) => schema(status, { data: {} });
    out[200] = chosen(200);
    for (let status = 201; status < 300; status++) {
      if (chosen(status) !== out[200]) out[status] = chosen(status);
    }
  } else {
    out[200] = schema;
  }
  for (const status of acceptStatus) out[status] = out[200];
  return out;
}

/** Answers read enveloped or bare (src/schemas/response-fields.ts, `envelopedOrBare`). */
function orBare({ ref, schemas }, name) {
  return {
    anyOf: [
      schemas[`${name}Response`]
        ? ref(`${name}Response`)
        : { type: 'object', required: ['data'], properties: { data: ref(name) } },
      ref(name),
    ],
  };
}

/**
 * Reading an answer either way is the SDK's choice: the spec shows each answer one way, bare
 * (§4.1, §4.5, §4.6, §4.7, §4.9) or in the envelope (§2, §4.4), or does not show it.
 */
const EITHER_WAY =
  "The spec shows this answer one way (the resource bare, or the envelope `{ status, message, data }` around it) or not at all; the SDK reads either: the envelope's `data` when the body has that key, else the body (docs/assumptions.md, single-resource answers).";

/** Each answer of the call: its schema's component, described by that schema's TSDoc. */
function answers(context, { sdkMethod, endpoint }) {
  const { ref, nameOf, types } = context;
  const out = {};
  for (const [status, schema] of Object.entries(schemasByStatus(endpoint))) {
    const name = nameOf(schema.bare ?? schema, sdkMethod);
    out[status] = {
      description: summaryOf(types[name]?.description) ?? 'The answer.',
      content: json(schema.bare ? orBare(context, name) : ref(name)),
      ...(schema.bare ? { 'x-assumption': EITHER_WAY } : {}),
    };
  }
  return { ...out, default: { $ref: '#/components/responses/Error' } };
}

/**
 * A path segment as the transport takes one (src/core/transport/path.ts): not blank, which would
 * reach another endpoint, and neither `.` nor `..`, which URL resolution removes from the path.
 */
const PATH_SEGMENT = { type: 'string', pattern: '\\S', not: { type: 'string', enum: ['.', '..'] } };

/** The path parameters of the call's `route`, described by their `@param` notes. */
function pathParams({ methods }, { sdkMethod, pathParams: values = {} }) {
  return Object.keys(values).map((name) => ({
    name: snake(name),
    in: 'path',
    required: true,
    description:
      methods[sdkMethod].params.find((param) => param.name === name)?.description ??
      `The ${name.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)}.`,
    schema: PATH_SEGMENT,
  }));
}

/**
 * The body of a call whose params are sent as `json` or `form`: required when the method's
 * parameter they came from is (the placeholder the recorder passed tells which one it was).
 */
function requestBody(context, { sdkMethod, endpoint: { params }, args }) {
  const { ref, nameOf, methods, schemas } = context;
  const index = args.indexOf(params.value);
  const optional = index === -1 || methods[sdkMethod].params[index].optional;
  const name = nameOf(params.schema, sdkMethod);
  // A form travels flat (form.mjs); the params component it comes from is named beside it.
  const schema =
    params.sendAs === 'form'
      ? { ...formSchema(schemas[name], schemas), 'x-sdk-params': ref(name) }
      : ref(name);
  return {
    ...(optional ? {} : { required: true }),
    content: { [CONTENT_TYPES[params.sendAs]]: { schema } },
  };
}

/**
 * The operation of a call recorded by calls.mjs. `context` names schemas by their component
 * (`nameOf(schema)` of an exported schema, `ref`, `schemas` the components) and gives the TSDoc
 * (`types`, and `methods` from `resourceMethods`).
 */
export function deriveOperation(context, call) {
  const { sdkMethod, endpoint } = call;
  const { description } = context.methods[sdkMethod];
  const { params } = endpoint;
  const parameters = pathParams(context, call);
  if (params?.sendAs === 'query') {
    parameters.push(...queryParams(context.schemas, context.nameOf(params.schema, sdkMethod)));
  }
  return {
    path: call.path.replace(/\{(\w+)\}/g, (_m, name) => `{${snake(name)}}`),
    method: call.method.toLowerCase(),
    operationId: sdkMethod,
    tags: [sdkMethod.split('.')[0]],
    description,
    'x-sdk-method': sdkMethod,
    summary: summaryOf(description),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(params && params.sendAs !== 'query' ? { requestBody: requestBody(context, call) } : {}),
    responses: answers(context, call),
  };
}
