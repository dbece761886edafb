/**
 * The testing kit behind a node:http server of a test's own, for tests that must act between the
 * kit and the wire (hold an answer back, cut a connection after the kit acted): each request
 * handed to the kit as a Fetch `Request`, and the kit's answer written back as it came.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MockPartnerApi } from 'partner-sdk/testing';

/** `req`, body read, as the Fetch `Request` the kit serves (its URL under the kit's own base). */
export async function kitRequest(mock: MockPartnerApi, req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  const hasBody = req.method !== 'GET' && chunks.length > 0;
  return new Request(`${mock.baseUrl.replace(/\/api\/v1$/, '')}${req.url}`, {
    method: req.method,
    headers,
    body: hasBody ? Buffer.concat(chunks) : undefined,
  });
}

/** Writes the kit's `answer` (its body already read as `body`) to `res`, unless the test cut it. */
export function writeAnswer(res: ServerResponse, answer: Response, body: Buffer): void {
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (!res.destroyed) res.writeHead(answer.status, headers).end(body);
}
