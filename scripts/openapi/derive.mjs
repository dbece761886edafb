// Each operation of the document derived from the call its resource method records (calls.mjs):
// path and parameters from the `route` template, request body or query from the params schema
// and its `sendAs`, answers from the response schema (its envelope, `envelopedOrBare`, a schema
// chosen by status, statuses accepted as results), words from the method's TSDoc.

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
    out[200] = schema(200);
    for (let status = 201; status < 300; status++) {
      if (schema(status) !== out[200]) out[status] = schema(status);
    }
  } else {
    out[200] = schema;
  }
  for (const status of acceptStatus) out[status] = out[200];
  return out;
}

/**
 * `derive(calls)` turns each recorded call into an operation, naming schemas by their component:
 * `nameOf(schema)` gives the component of an exported schema, `schemas` the components, `types`
 * and `methods` the TSDoc.
 */
export function deriver({ ref, nameOf, schemas, types, methods }) {
  // Answers read enveloped or bare (src/schemas/response-fields.ts, envelopedOrBare).
  const orBare = (name) => ({
    anyOf: [
      schemas[`${name}Response`]
        ? ref(`${name}Response`)
        : { type: 'object', required: ['data'], properties: { data: ref(name) } },
      ref(name),
    ],
  });
  const answer = (schema, sdkMethod) => {
    const name = nameOf(schema.bare ?? schema, sdkMethod);
    return {
      description: summaryOf(types[name]?.description) ?? 'The answer.',
      content: json(schema.bare ? orBare(name) : ref(name)),
    };
  };
  const pathParams = (call) =>
    Object.keys(call.pathParams ?? {}).map((name) => ({
      name: snake(name),
      in: 'path',
      required: true,
      description:
        methods[call.sdkMethod].params.find((param) => param.name === name)?.description ??
        `The ${name.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)}.`,
      schema: { type: 'string' },
    }));
  const requestBody = ({ sdkMethod, endpoint: { params }, args }) => {
    const index = args.indexOf(params.value);
    const optional = index === -1 || methods[sdkMethod].params[index].optional;
    return {
      ...(optional ? {} : { required: true }),
      content: {
        [CONTENT_TYPES[params.sendAs]]: { schema: ref(nameOf(params.schema, sdkMethod)) },
      },
    };
  };
  return (call) => {
    const { sdkMethod, endpoint } = call;
    const { description } = methods[sdkMethod];
    const parameters = [...pathParams(call)];
    if (endpoint.params?.sendAs === 'query') {
      parameters.push(...queryParams(schemas, nameOf(endpoint.params.schema, sdkMethod)));
    }
    const responses = {};
    for (const [status, schema] of Object.entries(schemasByStatus(endpoint))) {
      responses[status] = answer(schema, sdkMethod);
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
      ...(endpoint.params && endpoint.params.sendAs !== 'query'
        ? { requestBody: requestBody(call) }
        : {}),
      responses: { ...responses, default: { $ref: '#/components/responses/Error' } },
    };
  };
}
