import { describe, expect, it } from 'vitest';
import { holdSecret, registerSecret, unpinSecret } from '../../../src/core/logging/known-secrets';
import { redactText } from '../../../src/core/logging/redact';

/** Registers `count` other tokens, as a process serving that many sellers would. */
function passTokens(prefix: string, count: number): void {
  for (let i = 0; i < count; i++) registerSecret(`${prefix}-token-${String(i).padStart(5, '0')}`);
}

describe('the registry of known secrets', () => {
  it('keeps a held token masked while 600 others pass, and as a recent one after its release', () => {
    const release = holdSecret('held-seller-token-1');
    passTokens('first', 600);
    expect(redactText('echo held-seller-token-1')).toBe('echo [REDACTED]');
    release();
    expect(redactText('echo held-seller-token-1')).toBe('echo [REDACTED]');
  });

  it('counts each use: a token held by two calls stays masked when only one has ended', () => {
    const first = holdSecret('shared-seller-token-1');
    const second = holdSecret('shared-seller-token-1');
    first();
    passTokens('second', 600);
    expect(redactText('echo shared-seller-token-1')).toBe('echo [REDACTED]');
    second();
  });

  it('keeps a client token pinned twice (the same token logged in again) until both are unpinned', () => {
    registerSecret('twice-logged-in-token-1', true);
    registerSecret('twice-logged-in-token-1', true);
    unpinSecret('twice-logged-in-token-1');
    passTokens('third', 600);
    expect(redactText('echo twice-logged-in-token-1')).toBe('echo [REDACTED]');
  });

  it('forgets the least recently used of the tokens not in use, past 256 of them', () => {
    // A name no other test's secret is part of: the registry is the process's, and test files
    // share a process (a client token `token-1` elsewhere would mask part of `…-token-1`).
    registerSecret('forgotten-seller-credential-q7x');
    passTokens('fourth', 600);
    expect(redactText('echo forgotten-seller-credential-q7x')).toBe(
      'echo forgotten-seller-credential-q7x',
    );
  });
});
