/**
 * The quick acceptance of responses modelled only the SDK's own schemas, yet
 * said yes to partner schemas carrying a format (`z.uuid()`, `z.int()`, `z.iso.datetime()`,
 * `z.email()`), so `client.request({ schema })` returned invalid bodies under strict validation.
 * A partner's schema always goes to zod's own parser, never compiled by the SDK.
 * (test/core/validation/compiled.property.test.ts proves that the SDK's compiled schemas and
 * zod's interpreted parser agree on every exported schema.)
 */

import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { PartnerClient, ResponseValidationError } from '../../../src/index';
import { json, stubsClosedAfterEach } from '../../helpers/stub-server';

const stub = stubsClosedAfterEach();

const invalid = { id: 'not-a-uuid', count: 1.5, at: 'yesterday', mail: 'nobody' };

describe('a partner schema with formats through client.request', () => {
  const cases = {
    'z.uuid()': z.looseObject({ id: z.uuid() }),
    'z.int()': z.looseObject({ count: z.int() }),
    'z.iso.datetime()': z.looseObject({ at: z.iso.datetime() }),
    'z.email()': z.looseObject({ mail: z.email() }),
  };
  for (const [name, schema] of Object.entries(cases)) {
    it(`rejects a body that breaks ${name} under strict validation`, async () => {
      const server = await stub((_req, res) => json(res, 200, invalid));
      const client = new PartnerClient({
        baseUrl: server.baseUrl,
        clientToken: 'schema-token-1',
        logLevel: 'off',
      });
      const error = await client
        .request({ method: 'GET', path: '/users/fee-tiers', schema })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as ResponseValidationError).body).toEqual(invalid);
    });
  }

  it('returns what zod returns for a valid body', async () => {
    const valid = { id: '3f2b8c1e-9a4d-4e2b-8f6a-1c2d3e4f5a6b', count: 2 };
    const server = await stub((_req, res) => json(res, 200, valid));
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'schema-token-1',
      logLevel: 'off',
    });
    const data = await client.request({
      method: 'GET',
      path: '/x',
      schema: z.looseObject({ id: z.uuid(), count: z.int() }),
    });
    expect(data).toEqual(valid);
  });
});
