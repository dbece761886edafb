/**
 * `mock.listen({ port })`: the kit on a port a partner chose (a service configured with a fixed
 * address, a CI step that publishes one), the port in its URL; a taken port rejects with the
 * system's `EADDRINUSE` error, and a port no socket can have is refused before listening.
 */
import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockPartnerApi, type MockServer } from '../../src/testing';
import { freePort, listen as listenPlain, type RunningServer } from '../helpers/http-servers';
import { clientHeaders } from './helpers';

const open: Array<MockServer | RunningServer> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

describe('mock.listen({ port })', () => {
  it('listens on the port given, named in its URL, and answers there', async () => {
    const mock = createMockPartnerApi();
    const port = await freePort();
    const server = await mock.listen({ port });
    open.push(server);
    expect(server.url).toBe(`http://127.0.0.1:${port}/api/v1`);
    const res = await fetch(`${server.url}/products`, { headers: clientHeaders(mock) });
    expect(res.status).toBe(200);
  });

  it('takes a free port for port 0, as without options', async () => {
    const server = await createMockPartnerApi().listen({ port: 0 });
    open.push(server);
    expect(Number(new URL(server.url).port)).toBeGreaterThan(0);
  });

  it('rejects with EADDRINUSE when the port is taken', async () => {
    const taken = await listenPlain(createServer());
    open.push(taken);
    const port = Number(new URL(taken.url).port);
    await expect(createMockPartnerApi().listen({ port })).rejects.toMatchObject({
      code: 'EADDRINUSE',
    });
  });

  it.each([-1, 65_536, 1.5, Number.NaN])('refuses port %s with a RangeError', async (port) => {
    await expect(createMockPartnerApi().listen({ port })).rejects.toThrow(RangeError);
  });
});
