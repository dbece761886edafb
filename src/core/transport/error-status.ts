/**
 * An attempt the service answered with an error status. The transport reads its body itself,
 * as it reads a success's (`body.ts`): JSON whenever it parses, whatever the `Content-Type`
 * says, the text otherwise, within the attempt's time and at most `maxResponseBytes` of it. ky's
 * own reading of error bodies trusts the `Content-Type` and drops a body that does not parse,
 * and the raw body is what a partner needs when the service misbehaves.
 *
 * Never shown as it is: `errors/mapping.ts` turns it into the `APIError` of its status.
 */
export class ErrorStatus extends Error {
  /** The answer: its status and headers (its body already read into `body`). */
  readonly response: Response;
  /** The body as read: parsed JSON, text, or `undefined` when empty or unreadable. */
  readonly body: unknown;

  constructor(response: Response, body: unknown) {
    super(`HTTP ${response.status}`);
    this.response = response;
    this.body = body;
  }
}
