/**
 * A refused client option never carries the caller's text whole into the message: a `baseUrl`
 * that no URL parser reads may still hold a password, a query key or a fragment token, and a
 * value or an option name with line breaks or of 10 kB would forge or flood the log line that
 * prints the message. Each such value is left out of the message, or shown escaped and cut.
 */

import { PartnerClient, PartnerError } from 'partner-sdk';
import { describe, expect, it } from 'vitest';

const BASE = {
  baseUrl: 'https://partner.test/api/v1',
  clientToken: 'tok_live_quote',
  logLevel: 'off',
};

/** The message of the `PartnerError` that `new PartnerClient(options)` throws. */
function refusal(options: Record<string, unknown>): string {
  try {
    new PartnerClient(options as never);
  } catch (error) {
    expect(error).toBeInstanceOf(PartnerError);
    return (error as PartnerError).message;
  }
  throw new Error('the client was made');
}

const FLOOD = 'x'.repeat(10_000);
const FORGED = 'verbose\n[partner-sdk] error: forged line\r\n';

describe('refused client options are quoted safely', () => {
  it('names an unparseable baseUrl without its password, query or fragment', () => {
    // A space in the host makes the URL unparseable while its parts still read as parts.
    const baseUrl = 'https://ana:pass-w0rd-9f3@partner .test/api/v1?api_key=key-7d1c#tok-55aa';
    const message = refusal({ ...BASE, baseUrl });
    expect(message).toMatch(/`baseUrl` is not an absolute URL/);
    for (const secret of ['pass-w0rd-9f3', 'key-7d1c', 'tok-55aa', 'ana:']) {
      expect(message).not.toContain(secret);
    }
  });

  it.each([
    ['baseUrl', `not a url ${FORGED}${FLOOD}`],
    ['logLevel', FORGED],
    ['logLevel', FLOOD],
    ['validateResponses', FORGED],
    ['validateResponses', FLOOD],
  ])('keeps a %s with line breaks or of 10 kB out of the message', (name, value) => {
    const message = refusal({ ...BASE, [name]: value });
    expect(message).toContain(`\`${name}\``);
    expect(message).not.toMatch(/[\r\n]/);
    expect(message).not.toContain('forged line');
    expect(message.length).toBeLessThan(300);
  });

  it.each([
    ['with line breaks', `timeout\n[partner-sdk] error: forged line`],
    ['of 10 kB', FLOOD],
  ])('names an unknown option %s escaped and cut', (_, name) => {
    const message = refusal({ ...BASE, [name]: 1 });
    expect(message).toMatch(/is not an option/);
    expect(message).not.toMatch(/[\r\n]/);
    expect(message.length).toBeLessThan(300);
  });

  it('still names a short unknown option as written, with the option it likely meant', () => {
    expect(refusal({ ...BASE, timout: 1 })).toContain(
      '`timout` is not an option; did you mean `timeout`?',
    );
  });
});
