import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  followLocation,
  isAccepted,
  isAlreadyRunning,
  runningOnConflict,
  schemaByStatus,
} from '../../../src/core/transport/outcomes';

/** A Response as fetch delivers it: `url` is read-only, so it is set the way a fetch would. */
function answer(status: number, headers: Record<string, string>, url: string): Response {
  const response = new Response(null, { status, headers });
  Object.defineProperty(response, 'url', { value: url });
  return response;
}

describe('answers named by status and header', () => {
  it('resolves a relative Location against the URL that answered', () => {
    const response = answer(
      202,
      { location: '../refund/tx_1/status' },
      'https://a.test/api/v1/financial/refund/tx_1',
    );
    expect(isAccepted(response)).toBe(true);
    expect(followLocation(response)).toBe('https://a.test/api/v1/financial/refund/tx_1/status');
  });

  it('keeps an absolute Location, and gives undefined without one', () => {
    expect(followLocation(answer(202, { location: 'https://b.test/s' }, 'https://a.test/x'))).toBe(
      'https://b.test/s',
    );
    expect(followLocation(answer(202, {}, 'https://a.test/x'))).toBeUndefined();
  });

  it('hands back a Location it cannot resolve as it came', () => {
    expect(followLocation(answer(202, { location: 'http://[bad' }, ''))).toBe('http://[bad');
  });

  it('picks the schema by status, with a fallback for the others', () => {
    const accepted = z.object({ a: z.string() });
    const existing = z.object({ b: z.string() });
    const choose = schemaByStatus({ 202: accepted }, existing);
    expect(choose(202)).toBe(accepted);
    expect(choose(200)).toBe(existing);
    expect(choose(201)).toBe(existing);
  });

  it('reads the 409 of a running operation as a result', () => {
    const fields = runningOnConflict((body) => body === 'running');
    expect(fields.acceptStatus).toContain(409);
    expect(fields.acceptBody('running')).toBe(true);
    expect(fields.acceptBody('something else')).toBe(false);
    expect(isAlreadyRunning(answer(409, {}, ''))).toBe(true);
    expect(isAlreadyRunning(answer(200, {}, ''))).toBe(false);
    expect(isAccepted(answer(200, {}, ''))).toBe(false);
  });
});
