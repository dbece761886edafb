// The OpenAPI 3.1 document of the Partner Integration API, built from the SDK's own zod schemas
// with zod 4's `z.toJSONSchema` (JSON Schema 2020-12, the dialect of OpenAPI 3.1): every exported
// schema the document names is a component, and the operations, derived from the resource
// methods' calls (calls.mjs, derive.mjs), name them. Descriptions come from the TSDoc (tsdoc.mjs);
// the rules across fields are added from cross-field.mjs; the shapes the spec does not show carry
// `x-assumption` notes from src/assumptions.ts.

import * as z from 'zod';
import { DEFAULT_ASSUMPTIONS as A } from '../../src/assumptions.ts';
import * as schemas from '../../src/schemas/index.ts';
import { jsonKeywords } from '../../src/schemas/json-keywords.ts';
import * as webhookSchemas from '../../src/webhooks/schemas.ts';
import { recordCalls } from './calls.mjs';
import { addCrossFieldRules } from './cross-field.mjs';
import { deriveOperation } from './derive.mjs';
import { exceptions, loginOperation, webhooks } from './operations.mjs';

const ref = (name) => ({ $ref: `#/components/schemas/${name}` });

/**
 * Every exported zod schema as a JSON Schema component, cross-referenced by `$ref`, and `nameOf`,
 * the component's name of an exported schema.
 */
function components(types) {
  const registry = z.registry();
  const names = new Map();
  for (const [exported, schema] of Object.entries({ ...schemas, ...webhookSchemas })) {
    if (!exported.endsWith('Schema') || !(schema instanceof z.core.$ZodType)) continue;
    const name = exported.replace(/Schema$/, '').replace(/^./, (c) => c.toUpperCase());
    registry.add(schema, { id: name });
    if (!names.has(schema)) names.set(schema, name);
  }
  const { schemas: out } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    // The wire shape: what is sent and received, before any transform of the SDK's.
    io: 'input',
    // Rules JSON Schema cannot say (a tax id's check digits) are left to the SDK's own check.
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
    // The SDK's own rules are checks zod cannot translate: each states its keywords itself.
    override: ({ zodSchema, jsonSchema }) => {
      for (const [keyword, value] of Object.entries(jsonKeywords(zodSchema) ?? {})) {
        if (value !== undefined) jsonSchema[keyword] = value;
      }
    },
  });
  for (const [name, schema] of Object.entries(out)) {
    delete schema.$schema;
    delete schema.$id;
    describe(schema, types[name]);
  }
  addCrossFieldRules(out);
  const nameOf = (schema, sdkMethod) => {
    const name = names.get(schema);
    if (name) return name;
    throw new Error(
      `openapi: ${sdkMethod} uses a schema that src/schemas/index.ts does not export as XSchema`,
    );
  };
  return { schemas: out, nameOf };
}

/**
 * Puts the type's TSDoc on the schema and on each of its documented fields, and the known values
 * of a field the SDK keeps open (any string passes) as its `examples`: an `enum` would refuse the
 * values the spec leaves open, and a bare string would not name the spec's.
 */
function describe(schema, doc) {
  if (!doc) return;
  if (doc.description && !schema.description) schema.description = doc.description;
  for (const [field, text] of Object.entries(doc.fields)) {
    const property = schema.properties?.[field];
    if (property && !property.description) property.description = text;
  }
  for (const [field, values] of Object.entries(doc.openEnums)) {
    const property = schema.properties?.[field];
    const text = [property?.type].flat().includes('string');
    if (text && !property.enum && !property.examples) property.examples = values;
  }
}

/** The error body: the spec shows none; the SDK assumes Laravel's `{ message, errors }`. */
const ERROR_BODY = {
  type: 'object',
  description:
    'An error answer. Its shape is not shown by the spec; the SDK reads it as Laravel writes one: a human `message` (or `error`), and on a 422 the messages per field under `errors`.',
  'x-assumption': 'Error body shape: spec §7 "Error body shape: not shown".',
  properties: {
    message: { type: 'string' },
    error: { type: 'string' },
    errors: {
      type: 'object',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
  },
};

/** The login's answer as the SDK reads it (src/assumptions.ts). */
function loginSchemas() {
  const { body, tokenField } = A.login;
  return {
    LoginRequest: {
      type: 'object',
      required: [body.clientId, body.clientSecret],
      properties: { [body.clientId]: { type: 'string' }, [body.clientSecret]: { type: 'string' } },
      'x-assumption': `Spec §5.2 does not show the login request: assumed fields ${body.clientId} and ${body.clientSecret}.`,
    },
    LoginResponse: {
      type: 'object',
      anyOf: [
        { required: [tokenField], properties: { [tokenField]: { type: 'string' } } },
        {
          required: ['data'],
          properties: {
            data: {
              type: 'object',
              required: [tokenField],
              properties: { [tokenField]: { type: 'string' } },
            },
          },
        },
      ],
      'x-assumption': `Spec §5.2 does not show the login response: the token is assumed at ${tokenField} or data.${tokenField}.`,
    },
    Error: ERROR_BODY,
  };
}

/**
 * The operations: each resource method's, derived from the call it records, with the spec's
 * words it cannot carry merged over (operations.mjs); then the ones no method makes.
 */
async function operations({ resources, methods, types, schemas, nameOf }) {
  const context = { ref, nameOf, schemas, types, methods };
  const handWritten = exceptions({ A, ref });
  const calls = await recordCalls(resources, methods);
  for (const sdkMethod of Object.keys(handWritten)) {
    // An exception left behind by a renamed or removed method would silently vanish.
    if (!calls.some((call) => call.sdkMethod === sdkMethod)) {
      throw new Error(`openapi: operations.mjs describes ${sdkMethod}, which no method makes`);
    }
  }
  const derived = calls.map((call) => {
    const operation = deriveOperation(context, call);
    const { responses = {}, ...rest } = handWritten[call.sdkMethod] ?? {};
    if (call.endpoint.params?.encode && !rest.requestBody) {
      throw new Error(
        `openapi: ${call.sdkMethod} encodes its params before sending: describe its wire body in scripts/openapi/operations.mjs`,
      );
    }
    for (const [status, answer] of Object.entries(responses)) {
      operation.responses[status] = { ...operation.responses[status], ...answer };
    }
    return { ...operation, ...rest };
  });
  // Only the service's operations: the testing kit's own GET /openapi.json would give a generated
  // client a method that calls nothing on the service.
  return [loginOperation({ A, ref }), ...derived];
}

/**
 * Leaves out of the document's components each schema it never names: the SDK's argument to a
 * call whose fields travel as query parameters (spec §4.8, §4.10) or whose body is encoded before
 * sending (spec §4.4, and the date range it is encoded from), which the service never sees as
 * such; a client generated from the document would get a type no operation takes. Named means by
 * a `$ref` outside extensions, from an operation, a webhook, an answer or a named schema, or by
 * `x-sdk-params`, which names the object a multipart form is flattened from (form.mjs).
 */
function leaveOutUnnamed(document) {
  const { schemas, responses } = document.components;
  const named = new Set();
  const walk = (node, key = '') => {
    if (key.startsWith('x-') && key !== 'x-sdk-params') return;
    if (Array.isArray(node)) for (const item of node) walk(item);
    else if (node && typeof node === 'object') {
      for (const [field, value] of Object.entries(node)) {
        const name = field === '$ref' && value.match(/^#\/components\/schemas\/([^/]+)$/)?.[1];
        if (name && !named.has(name)) {
          named.add(name);
          walk(schemas[name]);
        }
        walk(value, field);
      }
    }
  };
  walk({ paths: document.paths, webhooks: document.webhooks, responses });
  for (const name of Object.keys(schemas)) if (!named.has(name)) delete schemas[name];
  return document;
}

/**
 * The document: `types` and `methods` are the TSDoc read by tsdoc.mjs (`methods` from
 * `resourceMethods`), `resources` the folder of the resource classes; `version` the interface
 * version the SDK follows (spec §9).
 */
export async function buildDocument({ types, methods, resources, version }) {
  const { schemas: schemasFound, nameOf } = components(types);
  const schemasOut = { ...schemasFound, ...loginSchemas() };
  const all = await operations({ resources, methods, types, schemas: schemasOut, nameOf });
  const paths = {};
  for (const operation of all) {
    const { path, method, ...rest } = operation;
    paths[path] ??= {};
    paths[path][method] = rest;
  }
  return leaveOutUnnamed({
    openapi: '3.1.0',
    info: {
      title: 'Partner Integration API',
      version,
      description:
        'The Partner Integration API of the digital-sales platform, as the partner-sdk TypeScript SDK reads it. Generated from the SDK\'s resource methods and zod schemas (scripts/build-openapi.mjs); where the spec says "not shown", the SDK\'s assumption is given in an `x-assumption` note.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [
      {
        url: '{base_url}',
        // The words sit on the server, not on its variable: the first published OpenAPI 3.1
        // schema, which @apidevtools/swagger-parser still validates with, refuses them there.
        description: 'The service address, version prefix included (spec §9): `base_url`.',
        variables: { base_url: { default: 'https://api.example.com/api/v1' } },
      },
    ],
    // Every request carries the client token (spec §4, §5.3); user-scoped ones may also take the
    // bearer, and the public set is not shown (§5.5): so either, unless an operation says more.
    security: [{ clientToken: [] }, { clientToken: [], userToken: [] }],
    tags: Object.entries({
      auth: 'The login that gives the client token (spec §5.2).',
      users: "A seller's profile (spec §4.1).",
      bankAccounts: "A seller's bank account (spec §4.5).",
      products: "A seller's products (spec §4.9, §4.10).",
      offers: "The offers of a seller's products (spec §4.6).",
      refunds: 'Refunds of a transaction, requested and read (spec §4.2, §4.3).',
      statements: 'Exports of the financial account statement (spec §4.4).',
      anticipations: 'Balance anticipations, confirmed and listed (spec §4.7, §4.8).',
      feeTiers: 'The history of changes to fee tiers (spec §4.11).',
    }).map(([name, description]) => ({ name, description })),
    paths,
    webhooks: webhooks({ ref }),
    components: {
      schemas: schemasOut,
      securitySchemes: {
        clientToken: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Api-Client-Token',
          description: 'The client token from the login (spec §5.3).',
        },
        userToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: "A seller's public_token (spec §5.5).",
        },
      },
      responses: {
        Error: {
          description: 'An error (spec §7); the body as the SDK reads it.',
          content: { 'application/json': { schema: ref('Error') } },
        },
      },
    },
  });
}
