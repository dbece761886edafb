// What stays written by hand in the document: every operation of a resource method is derived from
// the method itself (calls.mjs, derive.mjs); here are only the operations no method makes, the
// words and shapes of the spec that a method's call cannot carry, and the webhooks.

const json = (schema) => ({ 'application/json': { schema } });

/** The answers every call may get besides its own: the errors (spec §7), as the SDK reads them. */
const errors = (documented = {}) => ({
  ...documented,
  default: { $ref: '#/components/responses/Error' },
});
const error = { $ref: '#/components/responses/Error' };

const ok = (description, schema) => ({ description, content: json(schema) });

/** The login, which the SDK calls by itself before its first call (no resource method makes it). */
export function loginOperation({ A, ref }) {
  return {
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
  };
}

/** The component of the confirmation's body: its params, while the assumed field is theirs. */
function confirmationBody(A) {
  if (A.anticipationConfirmation.field !== 'scenario') {
    throw new Error(
      'openapi: the confirmation body travels under another field than its params: describe it in scripts/openapi/operations.mjs',
    );
  }
  return 'AnticipationConfirmParams';
}

/**
 * What the spec documents of an operation and its method's call cannot say, merged over the
 * derived operation (an answer's fields over the derived answer's): each with why.
 */
export function exceptions({ A, ref }) {
  return {
    'users.update': {
      // Spec §4.1 names both: "Security: client token header and bearer token".
      security: [{ clientToken: [], userToken: [] }],
      // Spec §4.1 lists these error answers; every call may get any error (`default`).
      responses: { 400: error, 401: error, 422: error, 500: error },
    },
    'refunds.request': {
      // What each status means, and the `Location` header the SDK follows, are the spec's words.
      responses: {
        200: { description: 'An active refund already exists: it is answered, none is created.' },
        202: {
          description: 'Accepted for asynchronous processing.',
          headers: {
            Location: {
              description: 'The address of the status endpoint.',
              required: true,
              schema: { type: 'string' },
            },
          },
        },
      },
    },
    'refunds.retrieveStatus': {
      'x-assumption': `Spec §4.2 names this endpoint without its shape: the status is assumed under data.status; terminal statuses ${A.refundStatus.terminal.join(', ')}; active ${A.refundStatus.active.join(', ')} (src/assumptions.ts, refundStatus).`,
    },
    'statements.export': {
      // The params are encoded before sending (a `{ start, end }` range becomes the wire string):
      // the body on the wire is not the params schema.
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
        }),
      },
      responses: {
        409: { description: 'An export with the same parameters is running: its data.' },
      },
      'x-assumption':
        'The HTTP status of a successful request is not shown (200 assumed); the answer is read enveloped or bare.',
    },
    'statements.retrieve': {
      'x-assumption': `Spec §4.12 names an export status lookup without its shape: assumed at this path, answering the export (enveloped or bare); finished when url is set, failed on ${A.exportStatus.failed.join(', ')} (src/assumptions.ts, exportStatus).`,
    },
    'anticipations.confirm': {
      'x-assumption': `The scenario field's name is not shown: assumed ${A.anticipationConfirmation.field} (src/assumptions.ts, anticipationConfirmation); the answer is read enveloped or bare.`,
      // The params are encoded before sending: `scenario` travels under the assumed field name,
      // which is its own name by default, so the body is the params as they are.
      requestBody: { required: true, content: json(ref(confirmationBody(A))) },
    },
  };
}

/**
 * The events spec §6 names, as OpenAPI 3.1 webhooks: a JSON body and no other header (the spec
 * shows no signature), acknowledged by a 200 (its retries are not shown). `user_updated`'s payload
 * is not shown: its body is the envelope, whose payload is any object.
 */
export function webhooks({ ref }) {
  const event = (name, schema) => ({
    post: {
      operationId: `webhook.${name}`,
      summary: `The ${name} event (spec §6), POSTed to the URL the client configured.`,
      requestBody: { required: true, content: json(ref(schema)) },
      responses: { 200: { description: 'Acknowledged (spec §6).' } },
    },
  });
  return {
    subscription_ended: event('subscription_ended', 'SubscriptionEndedEvent'),
    bank_account_updated: event('bank_account_updated', 'BankAccountUpdatedEvent'),
    bank_account_deleted: event('bank_account_deleted', 'BankAccountDeletedEvent'),
    user_updated: event('user_updated', 'WebhookEnvelope'),
  };
}
