/**
 * The README's proxy for a whole process with no code: Node 24's fetch reads `HTTP_PROXY` when
 * started with `NODE_USE_ENV_PROXY=1`. A child process started so, with a client made from the
 * environment alone, reaches the kit through a loopback forward proxy: under a host name only the
 * proxy resolves, so a call that went around it would fail.
 */

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { startForwardProxy } from '../../helpers/forward-proxy';

/** A name no resolver knows: only the proxy reaches it. */
const HOST = 'partner-api.proxied.test';

const root = fileURLToPath(new URL('../../../', import.meta.url));
// npm scripts run the repository's pinned Node (node_modules/.bin comes first on their PATH).
const pinnedNode = `${root}node_modules/.bin/node`;
const node = existsSync(pinnedNode) ? pinnedNode : process.execPath;

describe('NODE_USE_ENV_PROXY with HTTP_PROXY', () => {
  // A child Node that loads the SDK from source takes seconds on a busy machine: a wide bound.
  it('sends every call of a client with no fetch of its own through the proxy', async () => {
    const mock = createMockPartnerApi();
    const kit = await mock.listen();
    const port = new URL(kit.url).port;
    const proxy = await startForwardProxy(undefined, { [HOST]: '127.0.0.1' });
    try {
      const { stdout } = await promisify(execFile)(
        node,
        ['--import', './examples/support/register.ts', 'test/core/transport/env-proxy.child.ts'],
        {
          cwd: root,
          timeout: 50_000,
          env: {
            ...process.env,
            NODE_USE_ENV_PROXY: '1',
            HTTP_PROXY: proxy.url,
            http_proxy: proxy.url,
            NO_PROXY: '',
            no_proxy: '',
            PARTNER_API_BASE_URL: `http://${HOST}:${port}/api/v1`,
            PARTNER_API_CLIENT_ID: mock.credentials.clientId,
            PARTNER_API_CLIENT_SECRET: mock.credentials.clientSecret,
          },
        },
      );
      expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ listed: 2 });
      // Node's own proxying tunnels plain HTTP too: the proxy sees the tunnels, the kit the calls.
      expect(proxy.seen.length).toBeGreaterThan(0);
      for (const { method, url } of proxy.seen)
        expect(`${method} ${url}`).toBe(`CONNECT ${HOST}:${port}`);
      expect(mock.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        'POST /auth',
        'GET /products',
      ]);
    } finally {
      await proxy.close();
      await kit.close();
    }
  }, 60_000);
});
