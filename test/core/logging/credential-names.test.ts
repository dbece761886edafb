/**
 * The names that say a query parameter or header holds a credential: besides tokens, keys,
 * signatures and sessions, a password however it is spelt (`password`, `passwd`, `pwd`, a bare
 * `pass`), a JWT and a bearer. Their values are masked in every text the SDK shows, as
 * `url.full` scrubs them (`test/telemetry/url-full.test.ts`); these spellings add no name the spec
 * gives a query parameter or a body field (`page`, `per_page`), so ordinary values stay readable.
 */

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CREDENTIAL_NAME, redactText } from '../../../src/core/logging/redact';

const SPELLINGS = ['pwd', 'passwd', 'pass', 'db_pass', 'Password', 'jwt', 'id_jwt', 'bearer'];

/** Every property and parameter name of the spec's operations, from the generated OpenAPI document. */
function specNames(): string[] {
  const document = JSON.parse(
    readFileSync(new URL('../../../docs/openapi.json', import.meta.url), 'utf8'),
  );
  const names = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) {
      const { properties, name, in: where } = value as Record<string, unknown>;
      if (typeof properties === 'object' && properties !== null) {
        for (const key of Object.keys(properties)) names.add(key);
      }
      if (typeof name === 'string' && typeof where === 'string') names.add(name);
      Object.values(value).forEach(walk);
    }
  };
  walk(document);
  return [...names];
}

describe('a query parameter named for a password, a JWT or a bearer', () => {
  it.each(SPELLINGS)('%s: its value is masked in a text the SDK shows', (name) => {
    const text = `GET https://files.example.com/e.csv?${name}=hunter2-value&page=2`;
    expect(redactText(text)).toBe(`GET https://files.example.com/e.csv?${name}=[REDACTED]&page=2`);
  });
});

describe('the credential names', () => {
  it("match none of the spec's parameter and field names a password, JWT or bearer spelling adds", () => {
    const names = specNames();
    expect(names).toEqual(expect.arrayContaining(['page', 'per_page', 'reason']));
    // The spec's credentials, and two pix fields that `key` and `auth` matched before.
    const matched = names.filter((name) => CREDENTIAL_NAME.test(name)).sort();
    expect(matched).toEqual([
      'X-Api-Client-Token',
      'client_secret',
      'client_token',
      'pix_key',
      'pix_recurring_authorization_type',
      'public_token',
    ]);
  });
});
