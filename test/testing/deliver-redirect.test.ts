/**
 * `deliver` answers with the receiver's own status: a receiver that redirects the delivery (a
 * route mounted at `/webhooks/` while the service posts to `/webhooks`, an `http:` URL sent on to
 * `https:`) is seen redirecting, never as the status of the page it redirects to. The spec says
 * nothing of the service following redirects (§6), so a test must not pass on one.
 */

import http from 'node:http';
import { deliver, subscriptionEndedEvent } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { closedAfterEach } from '../helpers/http-servers';

const { serve } = closedAfterEach();

describe('deliver and a receiver that redirects', () => {
  it('resolves with the redirect status, and the redirect target never gets the event', async () => {
    const reached: string[] = [];
    const server = await serve(
      http.createServer((req, res) => {
        reached.push(`${req.method} ${req.url}`);
        if (req.url === '/webhooks') {
          res.writeHead(308, { location: '/webhooks/' }).end();
          return;
        }
        res.writeHead(200).end();
      }),
    );
    for (const status of [301, 302, 307, 308]) {
      reached.length = 0;
      const redirecting = await serve(
        http.createServer((req, res) => {
          reached.push(`${req.method} ${req.url}`);
          res.writeHead(status, { location: `${server.url}/webhooks/` }).end();
        }),
      );
      expect(await deliver(`${redirecting.url}/webhooks`, subscriptionEndedEvent())).toBe(status);
      expect(reached).toEqual(['POST /webhooks']);
    }
    reached.length = 0;
    expect(await deliver(`${server.url}/webhooks`, subscriptionEndedEvent())).toBe(308);
    expect(reached).toEqual(['POST /webhooks']);
  });
});
