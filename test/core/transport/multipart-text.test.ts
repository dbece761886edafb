/**
 * What a multipart body's text looks like on the wire, read as raw bytes by a loopback stub: field
 * values as their UTF-8 bytes, unchanged (an accent written apart stays apart), and a file name
 * as its UTF-8 bytes in `filename="…"`, with `"`, CR and LF percent-encoded, as browsers send it
 * and RFC 7578 §4.2 allows (no `filename*`, which that RFC says not to use). PHP reads such a name
 * back as the UTF-8 text given.
 */

import { PartnerClient, toFile } from 'partner-sdk';
import { describe, expect, it } from 'vitest';
import { paulistaAddress } from '../../helpers/addresses';
import { json, stubsClosedAfterEach } from '../../helpers/stub-server';

const startStub = stubsClosedAfterEach();

describe('multipart text on the wire', () => {
  it('sends field values and a file name as their UTF-8 bytes', async () => {
    const stub = await startStub((_request, res) =>
      json(res, 200, { code: 'usr_1', name: 'x', status: 'a', type: 'person', email: 'a@b.c' }),
    );
    const seller = new PartnerClient({
      baseUrl: stub.baseUrl,
      clientToken: 'client-token',
      logLevel: 'off',
    }).forUser('public-token');
    const nfd = 'Jose\u0301 Conceic\u0327a\u0303o';
    const avatar = await toFile(new Uint8Array([1, 2, 3]), 'Relatório "final"\r\n😀.png', {
      type: 'image/png',
    });
    await seller.users.update({
      name: nfd,
      address: { ...paulistaAddress, city: 'São Paulo 🌆' },
      cpf: '529.982.247-25',
      birth: '1988-04-12',
      avatar,
    });
    const body = stub.requests[0]!.body;
    expect(body).toContain(`name="name"\r\n\r\n${nfd}\r\n`);
    expect(body).toContain('name="address[city]"\r\n\r\nSão Paulo 🌆\r\n');
    expect(body).toContain(
      'name="avatar"; filename="Relatório %22final%22%0D%0A😀.png"\r\nContent-Type: image/png\r\n',
    );
  });
});
