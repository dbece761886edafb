import { describe, expect, it } from 'vitest';
import { CREDENTIAL_NAME } from '../../src/core/logging/redact';
import { fullUrl, URL_CREDENTIAL_NAME } from '../../src/telemetry/url-full';

describe('url.full', () => {
  it('replaces userinfo with REDACTED, as the conventions say', () => {
    expect(fullUrl('https://partner:s3cret@api.example.com/api/v1/products?page=2')).toBe(
      'https://REDACTED:REDACTED@api.example.com/api/v1/products?page=2',
    );
  });

  it('scrubs the values of credential parameters the conventions name, keeping the others as sent', () => {
    expect(
      fullUrl(
        'https://files.example.com/e.csv?AWSAccessKeyId=AK&Signature=x%2By&q=a%20b&X-Goog-Signature=z&Key-Pair-Id=K&flag',
      ),
    ).toBe(
      'https://files.example.com/e.csv?AWSAccessKeyId=REDACTED&Signature=REDACTED&q=a%20b&X-Goog-Signature=REDACTED&Key-Pair-Id=REDACTED&flag',
    );
  });

  it('scrubs a password however it is spelt, a JWT and a bearer', () => {
    expect(
      fullUrl('https://files.example.com/e.csv?pwd=a&passwd=b&db_pass=c&jwt=d&bearer=e&page=2'),
    ).toBe(
      'https://files.example.com/e.csv?pwd=REDACTED&passwd=REDACTED&db_pass=REDACTED&jwt=REDACTED&bearer=REDACTED&page=2',
    );
  });

  it('records nothing for a string that is no absolute URL', () => {
    expect(fullUrl('/products')).toBeUndefined();
  });
});

describe('the credential names url.full scrubs', () => {
  it('are the names redaction masks everywhere else, written once more only to keep chunks apart', () => {
    expect(URL_CREDENTIAL_NAME.source).toBe(CREDENTIAL_NAME.source);
    expect(URL_CREDENTIAL_NAME.flags).toBe(CREDENTIAL_NAME.flags);
  });
});
