import SwaggerParser from '@apidevtools/swagger-parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import document from '../../docs/openapi.json' with { type: 'json' };
import { DEFAULT_ASSUMPTIONS } from '../../src/assumptions';

type Operation = {
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, unknown>;
  'x-assumption'?: string;
  description?: string;
};
const operation = (method: string, path: string) =>
  (document.paths as Record<string, Record<string, Operation>>)[path]?.[method];

describe('docs/openapi.json (built by scripts/build-openapi.mjs)', () => {
  it('is a valid OpenAPI 3.1 document by the OpenAPI Initiative schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(document as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('passes @apidevtools/swagger-parser, which many generators and linters validate with', async () => {
    // It reads OpenAPI 3.1 by the first published schema, stricter than the final one in places
    // (a server variable's description): a document it refuses is refused by those tools too.
    const parsed = SwaggerParser.validate(structuredClone(document) as never);
    await expect(parsed).resolves.toMatchObject({ openapi: '3.1.0' });
  });

  it("has the service's operations only: none of the testing kit's own", () => {
    // A client generated from the document gets a method per operation: one for GET /openapi.json,
    // which the kit serves and the service is not known to, would call nothing.
    expect(Object.keys(document.paths)).not.toContain('/openapi.json');
    expect(document.tags.map((tag) => tag.name)).not.toContain('testing');
  });

  it('has every endpoint of spec §4.1–4.11 with its documented answers', () => {
    const endpoints: [string, string, string[]][] = [
      ['post', '/users/update', ['200', '400', '401', '422', '500']],
      ['post', '/financial/refund/{transaction_hash}', ['200', '202']],
      ['get', '/financial/refund/{transaction_hash}', ['200']],
      ['post', '/financial/account-statement/export-report', ['200', '409']],
      ['post', '/users/bank-accounts/{account_hash}', ['200']],
      ['put', '/products/{product_hash}/offers/{offer_code}', ['200']],
      ['post', '/financial/anticipation/confirm/{anticipation_hash}', ['200']],
      ['get', '/financial/anticipation', ['200']],
      ['get', '/products/{product_hash}', ['200']],
      ['get', '/products', ['200']],
      ['get', '/users/fee-tiers/history', ['200']],
    ];
    for (const [method, path, statuses] of endpoints) {
      const found = operation(method, path);
      expect(found, `${method} ${path}`).toBeDefined();
      expect(Object.keys(found?.responses ?? {})).toEqual(
        expect.arrayContaining([...statuses, 'default']),
      );
      expect(found?.description, `${method} ${path} carries its method's TSDoc`).toBeTruthy();
    }
  });

  it('asks every call for the client token, and for the bearer too only where the spec requires it', () => {
    type Requirement = Record<string, string[]>;
    const paths = document.paths as Record<string, Record<string, { security?: Requirement[] }>>;
    const clientTokenOrBoth = [{ clientToken: [] }, { clientToken: [], userToken: [] }];
    const expected: Record<string, Requirement[]> = {
      // §5.2: the login is how the client token is obtained; the kit's own document is public.
      'post /auth': [],
      'get /openapi.json': [],
      // §4.1: "Security: client token header and bearer token".
      'post /users/update': [{ clientToken: [], userToken: [] }],
    };
    for (const [path, methods] of Object.entries(paths)) {
      for (const [method, found] of Object.entries(methods)) {
        const key = `${method} ${path}`;
        // §4 and §5.3: every request carries the client token; user-scoped ones may also take
        // the bearer, and which endpoints are public is not shown.
        expect(found.security ?? document.security, key).toEqual(
          expected[key] ?? clientTokenOrBoth,
        );
      }
    }
  });

  it('describes each event spec §6 names as a webhook: a JSON POST, acknowledged by a 200', () => {
    type Webhook = {
      post: {
        parameters?: unknown[];
        requestBody: { content: Record<string, { schema: { $ref: string } }> };
        responses: Record<string, { description: string }>;
      };
    };
    const hooks = document.webhooks as Record<string, Webhook>;
    expect(Object.keys(hooks).sort()).toEqual([
      'bank_account_deleted',
      'bank_account_updated',
      'subscription_ended',
      'user_updated',
    ]);
    // user_updated's payload is not shown: the envelope, payload any object.
    expect(hooks.user_updated?.post.requestBody.content['application/json']?.schema.$ref).toBe(
      '#/components/schemas/WebhookEnvelope',
    );
    for (const [name, { post }] of Object.entries(hooks)) {
      expect(Object.keys(post.requestBody.content), name).toEqual(['application/json']);
      // "no other header": the spec shows no signature, and retries are not shown.
      expect(post.parameters, name).toBeUndefined();
      expect(Object.keys(post.responses), name).toEqual(['200']);
      expect(post.responses['200']?.description, name).not.toMatch(/again|retr|redeliver/i);
    }
  });

  it('gives the refund accepted for processing its Location header, which spec §3 and §4.2 say it has', () => {
    const accepted = (
      document.paths['/financial/refund/{transaction_hash}'].post.responses as Record<
        string,
        { headers?: Record<string, { required?: boolean }> }
      >
    )['202'];
    expect(accepted?.headers?.Location?.required).toBe(true);
  });

  it('sends the profile update as multipart with its files', () => {
    const body = operation('post', '/users/update')?.requestBody?.content;
    expect(Object.keys(body ?? {})).toEqual(['multipart/form-data']);
    expect(JSON.stringify(body)).toContain('"avatar"');
  });

  it('notes each assumption of src/assumptions.ts where the spec says "not shown"', () => {
    const { login, refundStatus, exportStatus, anticipationConfirmation } = DEFAULT_ASSUMPTIONS;
    const assumedAt = (method: string, path: string) => operation(method, path)?.['x-assumption'];
    expect(assumedAt('post', login.path)).toContain(login.body.clientId);
    expect(assumedAt('get', refundStatus.path.replace('{hash}', '{transaction_hash}'))).toContain(
      'terminal',
    );
    expect(assumedAt('get', exportStatus.path.replace('{hash}', '{export_hash}'))).toContain(
      'finished when url is set',
    );
    expect(assumedAt('post', '/financial/anticipation/confirm/{anticipation_hash}')).toContain(
      anticipationConfirmation.field,
    );
    expect(document.components.schemas.Error['x-assumption']).toContain('not shown');
  });

  it('notes, on each answer it reads bare or in the envelope, that the spec shows only one of the two', () => {
    // Spec §2 names its envelope for the financial, fee-tier and anticipation endpoints; §4.1,
    // §4.5, §4.6 and §4.9 give the resource itself. Reading either is the SDK's choice, not the
    // service's documented shape: a reader of the document must not take it for the spec's.
    type Answer = { content?: Record<string, { schema: { anyOf?: unknown[] } }> };
    const unmarked: string[] = [];
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, found] of Object.entries(methods as Record<string, Operation>)) {
        for (const [status, answer] of Object.entries(found.responses as Record<string, Answer>)) {
          const schema = answer.content?.['application/json']?.schema;
          const either = schema?.anyOf?.length === 2;
          if (either && !(answer as { 'x-assumption'?: string })['x-assumption']) {
            unmarked.push(`${method} ${path} ${status}`);
          }
        }
      }
    }
    expect(unmarked).toEqual([]);
    const product = document.paths['/products/{product_hash}'].get.responses['200'] as {
      'x-assumption'?: string;
    };
    expect(product['x-assumption']).toMatch(/bare|envelope/);
  });

  it('refuses the path parameters no call can carry: blank, `.` or `..`', async () => {
    // A blank segment reaches another endpoint (`GET /products/` is the list), and URL resolution
    // removes `.` and `..`, changing the endpoint: the SDK refuses all three before sending.
    const { ajv } = await import('../helpers/openapi-document');
    type Parameter = { name: string; in: string; schema: Record<string, unknown> };
    const parameters = Object.values(document.paths).flatMap((methods) =>
      Object.values(methods as Record<string, { parameters?: Parameter[] }>).flatMap(
        (found) => found.parameters?.filter((parameter) => parameter.in === 'path') ?? [],
      ),
    );
    expect(parameters.length).toBeGreaterThan(0);
    for (const { name, schema } of parameters) {
      for (const bad of ['', '  ', '.', '..'])
        expect(ajv.validate(schema, bad), `${name} ${bad}`).toBe(false);
      for (const good of ['prd_1', 'a b', '...'])
        expect(ajv.validate(schema, good), `${name} ${good}`).toBe(true);
    }
  });

  it('describes fields with the TSDoc of the SDK types', () => {
    expect(document.components.schemas.Product.properties.name.description).toMatch(/Product name/);
  });
  it('gives every enum its type, so a generated client gets a typed enum and not an untyped value', () => {
    // openapi-generator and friends read `enum` without `type` as "any": the anticipation
    // scenario became an untyped field in generated clients.
    const untyped: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (node === null || typeof node !== 'object') return;
      const schema = node as { enum?: unknown[]; type?: unknown };
      if (Array.isArray(schema.enum) && schema.type === undefined) untyped.push(at);
      for (const [key, value] of Object.entries(node)) walk(value, `${at}/${key}`);
    };
    walk(document, '#');
    expect(untyped).toEqual([]);
  });
  it('describes every tag, which documentation viewers show as the heading text of its group', () => {
    // Redoc and Swagger UI show a group's description under its name; Redocly's recommended rules
    // warn on a tag without one.
    expect(document.tags.filter((tag) => !(tag as { description?: string }).description)).toEqual(
      [],
    );
  });

  it('names every component it declares, as the spec carries it: no params shape that never travels', () => {
    // Redocly's recommended rules warn on a component nothing names (`no-unused-components`), and
    // a generated client would get a type no operation takes. A `$ref` under an extension is no
    // use, but for `x-sdk-params`: the object a multipart form is flattened from (form.mjs), which
    // keeps what each array item requires (spec §4.1: a phone's `type`).
    const schemas = document.components.schemas as Record<string, unknown>;
    const named = new Set<string>();
    const walk = (node: unknown, key = ''): void => {
      if (key.startsWith('x-') && key !== 'x-sdk-params') return;
      if (Array.isArray(node)) for (const item of node) walk(item);
      else if (node && typeof node === 'object') {
        for (const [field, value] of Object.entries(node)) {
          const target = field === '$ref' && typeof value === 'string' ? value : undefined;
          const name = target?.match(/^#\/components\/schemas\/([^/]+)$/)?.[1];
          if (name && !named.has(name)) {
            named.add(name);
            walk(schemas[name]);
          }
          walk(value, field);
        }
      }
    };
    walk({
      paths: document.paths,
      webhooks: document.webhooks,
      responses: document.components.responses,
    });
    expect(Object.keys(schemas).filter((name) => !named.has(name))).toEqual([]);
    // Spec §4.8 and §4.10: page and per_page are query parameters, each with its bounds.
    const list = operation('get', '/products') as { parameters?: { name: string; in: string }[] };
    expect(list.parameters?.map((p) => `${p.in} ${p.name}`)).toEqual([
      'query page',
      'query per_page',
    ]);
    // Spec §4.7: the body carries the scenario, under the field name the SDK assumes.
    const confirm = operation('post', '/financial/anticipation/confirm/{anticipation_hash}');
    expect(confirm?.requestBody?.content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/AnticipationConfirmParams' } },
    });
  });
});
