import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import document from '../../docs/openapi.json' with { type: 'json' };
import { toFormData } from '../../src/core/transport/multipart';
import { paulistaAddress } from '../helpers/addresses';

/**
 * The profile update's multipart body (spec §4.1) in docs/openapi.json, read as a generator reads
 * it: the fields as they travel (nested ones in bracket form, booleans as 1/0, files as binary
 * parts), so that a client generated from the document sends what the SDK sends and the service
 * reads, rather than an address as one JSON part.
 */
type Json = Record<string, unknown>;
const body = (document.paths['/users/update'].post.requestBody.content as Json)[
  'multipart/form-data'
] as { schema: Json };
const form = body.schema as {
  properties: Record<string, Json>;
  patternProperties?: Record<string, Json>;
  required: string[];
};
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats(ajv);
ajv.addSchema(document, 'openapi.json');
const validate = ajv.compile({
  $ref: 'openapi.json#/paths/~1users~1update/post/requestBody/content/multipart~1form-data/schema',
});

/** The text fields of a multipart body, by name (files as `binary`). */
async function sent(params: Json): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  for (const [name, value] of (await toFormData(params, Number.MAX_SAFE_INTEGER)).entries()) {
    fields[name] = typeof value === 'string' ? value : 'binary';
  }
  return fields;
}

describe('docs/openapi.json: the profile update as multipart', () => {
  it('names the nested fields in bracket form, with their limits and whether required', () => {
    expect(form.properties['address[zip_code]']).toMatchObject({ type: 'string', maxLength: 10 });
    expect(form.properties['company_partner[name]']).toMatchObject({ maxLength: 191 });
    expect(form.required).toEqual(
      expect.arrayContaining(['name', 'address[zip_code]', 'address[city]', 'address[state]']),
    );
    expect(form.required).not.toContain('address[complement]');
    expect(form.properties.address).toBeUndefined();
  });

  it('notes that the spec does not show how nested fields and booleans travel in a form', () => {
    // Spec §4.1 says multipart and gives `address` as an object and `phones` as an array; bracket
    // names and 1/0 are how a Laravel service reads a form: the SDK's reading, not the spec's.
    expect((body.schema as Json)['x-assumption']).toMatch(/not shown.*bracket/s);
  });

  it('gives booleans as 1 or 0 and files as binary parts', () => {
    expect(form.properties.is_emancipated).toMatchObject({ type: 'string', enum: ['1', '0'] });
    expect(form.properties['address[is_default]']).toMatchObject({
      enum: ['1', '0'],
      default: '0',
    });
    for (const file of ['avatar', 'emancipated_document']) {
      expect(form.properties[file]).toMatchObject({ type: 'string', format: 'binary' });
    }
  });

  it('accepts what the SDK sends and refuses what the service would', async () => {
    const person = {
      name: 'Ana Souza',
      cpf: '529.982.247-25',
      birth: '1990-04-01',
      is_emancipated: false,
      address: { ...paulistaAddress, is_default: true },
      phones: [{ type: 'mobile', ddd: '11', number: '912345678' }],
      company_partner: { name: 'Bruno Lima', cpf: '111.444.777-35' },
    };
    const fields = await sent(person);
    expect(validate(fields), JSON.stringify(validate.errors)).toBe(true);
    // A generated client following the document never sends these.
    expect(validate({ ...fields, is_emancipated: 'true' })).toBe(false);
    expect(validate({ ...fields, 'phones[0][number]': '1234567' })).toBe(false);
    expect(validate({ ...fields, 'phones[3][ddd]': '119' })).toBe(false);
    const { 'address[city]': _city, ...withoutCity } = fields;
    expect(validate(withoutCity)).toBe(false);
  });
});
