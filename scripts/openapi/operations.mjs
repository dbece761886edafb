// The operations of spec §4.1–4.11 (and the endpoints the SDK assumes where §4.12 and §5 name one
// without its shape), each naming the component schemas of its request and answers.

const json = (schema) => ({ 'application/json': { schema } });
const pathParam = (name, description) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
});

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

/** The answers every call may get besides its own: the errors (spec §7), as the SDK reads them. */
const errors = (documented = {}) => ({
  ...documented,
  default: { $ref: '#/components/responses/Error' },
});

/** A path with `{hash}` where the assumption puts it, named as the spec names the parameter. */
const hashPath = (template, name) => template.replace('{hash}', `{${name}}`);

export function operations({ A, ref, schemas, methods }) {
  const op = (sdkMethod, fields) => ({
    operationId: sdkMethod,
    tags: [sdkMethod.split('.')[0]],
    description: methods[sdkMethod],
    'x-sdk-method': sdkMethod,
    ...fields,
  });
  const ok = (description, schema, headers) => ({
    description,
    ...(headers ? { headers } : {}),
    content: json(schema),
  });
  // Answers read enveloped or bare (src/schemas/response-fields.ts, envelopedOrBare).
  const orBare = (name) => ({
    anyOf: [
      schemas[`${name}Response`]
        ? ref(`${name}Response`)
        : { type: 'object', required: ['data'], properties: { data: ref(name) } },
      ref(name),
    ],
  });
  return [
    {
      path: A.login.path,
      method: 'post',
      operationId: 'login',
      tags: ['auth'],
      summary: 'Log in with the client identifier and secret (spec §5.2).',
      description:
        'The SDK calls it by itself before the first call and again when the token is refused.',
      security: [],
      'x-assumption': `Spec §5.2 names the path only: the body is assumed as ${A.login.body.clientId} and ${A.login.body.clientSecret}, the token at ${A.login.tokenField} or data.${A.login.tokenField} (src/assumptions.ts, login).`,
      requestBody: { required: true, content: json(ref('LoginRequest')) },
      responses: errors({ 200: ok('The client token.', ref('LoginResponse')) }),
    },
    op('users.update', {
      path: '/users/update',
      method: 'post',
      summary: "Update the seller's profile (spec §4.1).",
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              allOf: [ref('UserUpdateParams')],
              properties: {
                avatar: {
                  type: 'string',
                  contentMediaType: 'application/octet-stream',
                  description: 'The user photo (a file).',
                },
                emancipated_document: {
                  type: 'string',
                  contentMediaType: 'application/octet-stream',
                  description: 'Person under 18: the emancipation document (a file).',
                },
              },
            },
            'x-encoding-note':
              'Nested fields travel in bracket form (address[zip_code], phones[0][number]); booleans as 1/0.',
          },
        },
      },
      responses: errors({
        200: ok('The updated user (spec §2.1).', ref('User')),
        400: { $ref: '#/components/responses/Error' },
        401: { $ref: '#/components/responses/Error' },
        422: { $ref: '#/components/responses/Error' },
        500: { $ref: '#/components/responses/Error' },
      }),
    }),
    op('refunds.request', {
      path: '/financial/refund/{transaction_hash}',
      method: 'post',
      summary: 'Request a refund of a transaction, processed asynchronously (spec §4.2).',
      parameters: [pathParam('transaction_hash', 'The transaction to refund.')],
      requestBody: { content: json(ref('RefundRequestParams')) },
      responses: errors({
        200: ok(
          'An active refund already exists: it is answered, none is created.',
          ref('RefundExistingResponse'),
        ),
        202: ok('Accepted for asynchronous processing.', ref('RefundAcceptedResponse'), {
          Location: {
            description: 'The address of the status endpoint.',
            schema: { type: 'string' },
          },
        }),
      }),
    }),
    op('refunds.list', {
      path: '/financial/refund/{transaction_hash}',
      method: 'get',
      summary: 'Read the refunds of a transaction (spec §4.3).',
      parameters: [pathParam('transaction_hash', 'The transaction.')],
      responses: errors({ 200: ok('The refunds (spec §2.9).', ref('RefundListResponse')) }),
    }),
    op('refunds.retrieveStatus', {
      path: hashPath(A.refundStatus.path, 'transaction_hash'),
      method: 'get',
      summary: 'The status of a refund request (spec §4.2, shape not shown).',
      'x-assumption': `Spec §4.2 names this endpoint without its shape: the status is assumed under data.status; terminal statuses ${A.refundStatus.terminal.join(', ')}; active ${A.refundStatus.active.join(', ')} (src/assumptions.ts, refundStatus).`,
      parameters: [pathParam('transaction_hash', 'The transaction.')],
      responses: errors({ 200: ok("The refund's status.", ref('RefundStatusResponse')) }),
    }),
    op('statements.export', {
      path: '/financial/account-statement/export-report',
      method: 'post',
      summary: 'Request an asynchronous export of the account statement (spec §4.4).',
      requestBody: {
        content: json({
          type: 'object',
          properties: {
            format: { type: 'string', description: 'Export format, for example csv or pdf.' },
            filter: {
              type: 'object',
              properties: {
                betweenDates: {
                  type: 'string',
                  pattern: '^\\d{2}/\\d{2}/\\d{4},\\d{2}/\\d{2}/\\d{4}$',
                  description: 'Two dates DD/MM/YYYY separated by a comma (start, end).',
                },
              },
            },
          },
          'x-sdk-params': ref('StatementExportParams'),
        }),
      },
      responses: errors({
        200: ok('The export, processing.', orBare('StatementExport')),
        409: ok(
          'An export with the same parameters is running: its data.',
          orBare('StatementExport'),
        ),
      }),
      'x-assumption':
        'The HTTP status of a successful request is not shown (200 assumed); the answer is read enveloped or bare.',
    }),
    op('statements.retrieve', {
      path: hashPath(A.exportStatus.path, 'export_hash'),
      method: 'get',
      summary: 'The status of an export (spec §4.12, shape not shown).',
      'x-assumption': `Spec §4.12 names an export status lookup without its shape: assumed at this path, answering the export (enveloped or bare); finished when url is set, failed on ${A.exportStatus.failed.join(', ')} (src/assumptions.ts, exportStatus).`,
      parameters: [pathParam('export_hash', 'The export.')],
      responses: errors({ 200: ok('The export.', orBare('StatementExport')) }),
    }),
    op('bankAccounts.update', {
      path: '/users/bank-accounts/{account_hash}',
      method: 'post',
      summary: 'Update a bank account (spec §4.5).',
      parameters: [pathParam('account_hash', 'The bank account hash.')],
      requestBody: { required: true, content: json(ref('BankAccountUpdateParams')) },
      responses: errors({ 200: ok('The bank account (spec §2.4).', ref('BankAccount')) }),
    }),
    op('offers.update', {
      path: '/products/{product_hash}/offers/{offer_code}',
      method: 'put',
      summary: 'Update an offer of a product (spec §4.6).',
      parameters: [
        pathParam('product_hash', 'The product.'),
        pathParam('offer_code', 'The offer.'),
      ],
      requestBody: { required: true, content: json(ref('OfferUpdateParams')) },
      responses: errors({ 200: ok('The offer (spec §2.6).', ref('Offer')) }),
    }),
    op('anticipations.confirm', {
      path: '/financial/anticipation/confirm/{anticipation_hash}',
      method: 'post',
      summary: 'Confirm a calculated balance anticipation (spec §4.7).',
      'x-assumption': `The scenario field's name is not shown: assumed ${A.anticipationConfirmation.field} (src/assumptions.ts, anticipationConfirmation); the answer is read enveloped or bare.`,
      parameters: [pathParam('anticipation_hash', 'The anticipation, from its calculation.')],
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          required: [A.anticipationConfirmation.field],
          properties: { [A.anticipationConfirmation.field]: { enum: ['above', 'below'] } },
        }),
      },
      responses: errors({
        200: ok('The confirmed anticipation.', orBare('AnticipationConfirmation')),
      }),
    }),
    op('anticipations.list', {
      path: '/financial/anticipation',
      method: 'get',
      summary: 'List anticipations, newest first (spec §4.8).',
      parameters: queryParams(schemas, 'AnticipationListParams'),
      responses: errors({
        200: ok('A page of anticipations.', ref('AnticipationListResponse')),
      }),
    }),
    op('products.retrieve', {
      path: '/products/{product_hash}',
      method: 'get',
      summary: 'Read a product (spec §4.9).',
      parameters: [pathParam('product_hash', 'The product.')],
      responses: errors({ 200: ok('The product (spec §2.5).', ref('Product')) }),
    }),
    op('products.list', {
      path: '/products',
      method: 'get',
      summary: 'List products (spec §4.10).',
      parameters: queryParams(schemas, 'ProductListParams'),
      responses: errors({ 200: ok('A page of products.', ref('ProductListResponse')) }),
    }),
    op('feeTiers.history', {
      path: '/users/fee-tiers/history',
      method: 'get',
      summary: 'The history of changes to fee tiers, newest first (spec §4.11).',
      responses: errors({
        200: ok('The history records (spec §2.12).', ref('FeeTierHistoryResponse')),
      }),
    }),
    {
      path: '/openapi.json',
      method: 'get',
      operationId: 'openapi',
      tags: ['testing'],
      summary: 'This document.',
      description:
        "Served by the SDK's testing kit (partner-sdk/testing) only; the service itself is not known to serve it.",
      security: [],
      responses: {
        200: {
          description: 'This document.',
          content: json({ type: 'object', required: ['openapi'] }),
        },
      },
    },
  ];
}

/** The events of spec §6 the SDK types, as OpenAPI 3.1 webhooks. */
export function webhooks({ ref }) {
  const event = (name, schema) => ({
    post: {
      operationId: `webhook.${name}`,
      summary: `The ${name} event (spec §6), POSTed to the URL the client configured.`,
      requestBody: { required: true, content: json(ref(schema)) },
      responses: { 200: { description: 'Acknowledged: the service does not send it again.' } },
    },
  });
  return {
    subscription_ended: event('subscription_ended', 'SubscriptionEndedEvent'),
    bank_account_updated: event('bank_account_updated', 'BankAccountUpdatedEvent'),
    bank_account_deleted: event('bank_account_deleted', 'BankAccountDeletedEvent'),
  };
}
