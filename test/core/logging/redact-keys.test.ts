/**
 * Which keys redaction masks, however the key is spelled: the service writes snake_case, a caller's
 * own code or headers may write camelCase or kebab-case, and all of them name the same field.
 */
import { describe, expect, it } from 'vitest';
import { redactDeep, redactForLog } from '../../../src/core/logging/redact';

describe('keys are matched by their letters and digits, whatever the case or separators', () => {
  it('masks secret keys in every spelling, in data and in logs alike', () => {
    const value = {
      client_secret: 's1',
      clientSecret: 's2',
      'Client-Secret': 's3',
      CLIENT_TOKEN: 't',
    };
    const masked = {
      client_secret: '[REDACTED]',
      clientSecret: '[REDACTED]',
      'Client-Secret': '[REDACTED]',
      CLIENT_TOKEN: '[REDACTED]',
    };
    expect(redactDeep(value)).toEqual(masked);
    expect(redactForLog(value)).toEqual(masked);
  });

  it('masks personal keys in every spelling in logs, and leaves them in data returned to the caller', () => {
    const value = {
      account_number: '12345-6',
      accountNumber: '12345-6',
      'Pix-Key': 'maria@example.com',
      pixKey: 'maria@example.com',
      holderDocument: '529.982.247-25',
      CPF: '529.982.247-25',
      name: 'Maria',
      account_type: 'checking',
    };
    expect(redactForLog(value)).toEqual({
      account_number: '[REDACTED]',
      accountNumber: '[REDACTED]',
      'Pix-Key': '[REDACTED]',
      pixKey: '[REDACTED]',
      holderDocument: '[REDACTED]',
      CPF: '[REDACTED]',
      name: 'Maria',
      account_type: 'checking',
    });
    expect(redactDeep(value)).toEqual(value);
  });
});
