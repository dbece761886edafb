/**
 * JSON answers that are valid but odd, as servers other than the testing kit send them: a UTF-8
 * byte-order mark, a `Content-Type` with a charset (another than UTF-8 included: JSON is UTF-8,
 * RFC 8259, and a charset parameter has no effect on it), of another JSON type, in upper case,
 * not JSON's, or none, keys in any order, a key twice, numbers past 2^53, `\u0000` in strings.
 * Each is read as the JSON it is.
 *
 * No integer the spec names can reach 2^53 (the largest bounded is a phone id, 999999999; amounts
 * are cents, and 2^53 cents is some ninety trillion reais); one that does has already been read by
 * `JSON.parse` as another number (the nearest double), so validation refuses it, naming the field,
 * rather than hand a partner a count or an amount that is not the one sent.
 */

import { PartnerClient } from 'partner-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { type StubServer, startStub } from '../../helpers/stub-server';

let server: StubServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function answering(body: string | Uint8Array, contentType?: string) {
  server = await startStub((_request, res) => {
    res.writeHead(200, contentType === undefined ? {} : { 'content-type': contentType });
    res.end(body);
  });
  return new PartnerClient({
    baseUrl: server.baseUrl,
    clientToken: 'odd-json-token',
    logLevel: 'off',
    maxRetries: 0,
  });
}

const PRODUCT = { hash: 'prd_1', name: 'Curso', category_id: 12, refund_deadline: 7 };
const text = JSON.stringify(PRODUCT);

describe('an odd but valid JSON answer', () => {
  it('is read past a UTF-8 byte-order mark', async () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    const client = await answering(bom, 'application/json');
    await expect(client.products.retrieve('prd_1')).resolves.toEqual(PRODUCT);
  });

  it.each([
    'application/json; charset=utf-8',
    'application/json;charset=UTF-8',
    'application/vnd.api+json',
    'APPLICATION/JSON; CHARSET=UTF-8',
    'application/problem+json',
    'text/plain',
    'text/html; charset=utf-8',
    undefined,
  ])('is read whatever its Content-Type says (%s)', async (contentType) => {
    const client = await answering(text, contentType);
    await expect(client.products.retrieve('prd_1')).resolves.toEqual(PRODUCT);
  });

  it.each([
    'application/json; charset=iso-8859-1',
    'application/json; charset=windows-1252',
    'text/plain; charset=us-ascii',
  ])(
    'is read as UTF-8 under a charset that says otherwise (%s), as RFC 8259 has JSON',
    async (contentType) => {
      // A proxy's charset setting labels what PHP's json_encode wrote, which is UTF-8 or nothing.
      const client = await answering(
        Buffer.from('{"hash":"prd_1","name":"Curso de ação 📷"}', 'utf8'),
        contentType,
      );
      const product = await client.products.retrieve('prd_1');
      expect(product.name).toBe('Curso de ação 📷');
    },
  );

  it('is read with its keys in any order', async () => {
    const client = await answering(
      '{"refund_deadline":7,"category_id":12,"name":"Curso","hash":"prd_1"}',
    );
    await expect(client.products.retrieve('prd_1')).resolves.toEqual(PRODUCT);
  });

  it('keeps the last of a key sent twice, as JSON.parse does', async () => {
    const client = await answering(
      '{"hash":"prd_0","name":"Curso","hash":"prd_1","name":"Curso 2"}',
    );
    await expect(client.products.retrieve('prd_1')).resolves.toEqual({
      hash: 'prd_1',
      name: 'Curso 2',
    });
  });

  it('refuses an integer past 2^53, which JSON.parse has already read as another number', async () => {
    const client = await answering(
      '{"data":[],"meta":{"current_page":1,"last_page":1,"per_page":50,"total":9007199254740993}}',
    );
    await expect(client.products.list()).rejects.toMatchObject({
      name: 'ResponseValidationError',
      status: 200,
      issues: [expect.objectContaining({ path: ['meta', 'total'] })],
    });
  });

  it('reads integers written as 12.0 or 7e0 as the numbers they are', async () => {
    const client = await answering('{"hash":"prd_1","category_id":12.0,"refund_deadline":7e0}');
    await expect(client.products.retrieve('prd_1')).resolves.toEqual({
      hash: 'prd_1',
      category_id: 12,
      refund_deadline: 7,
    });
  });

  it('keeps \\u0000 and escaped characters in strings as they decode', async () => {
    const client = await answering(
      '{"hash":"prd_1","name":"Curso\\u0000 de a\\u00e7\\u00e3o \\ud83d\\udcf7"}',
    );
    const product = await client.products.retrieve('prd_1');
    expect(product.name).toBe('Curso\u0000 de ação 📷');
  });
});
