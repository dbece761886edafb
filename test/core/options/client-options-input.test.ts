/**
 * `new PartnerClient(options)` and `withOptions` called wrongly from plain JavaScript (DESIGN §2):
 * each wrong option is a `PartnerError` naming it at construction, never a `TypeError` from inside
 * and never a message quoting a secret; an option name the client does not know is refused with the
 * name it likely meant. `as never` marks what the types already refuse.
 */

import fc from 'fast-check';
import { PartnerClient, PartnerError } from 'partner-sdk';
import { describe, expect, it } from 'vitest';
import { anyValue, HOSTILE_SECRETS, hostileService, outcomeOf } from '../../helpers/hostile-inputs';

const start = hostileService();
const BASE_URL = 'https://partner.test/api/v1';
const TOKEN = { baseUrl: BASE_URL, clientToken: HOSTILE_SECRETS.clientToken, logLevel: 'off' };

/** The error `new PartnerClient(options)` throws, which must be the SDK's own. */
function construction(options: Record<string, unknown>): PartnerError {
  const outcome = (() => {
    try {
      new PartnerClient(options as never);
      return undefined;
    } catch (error) {
      return error;
    }
  })();
  expect(outcome).toBeInstanceOf(PartnerError);
  return outcome as PartnerError;
}
describe('client options from plain JavaScript', () => {
  const WRONG: [string, unknown][] = [
    ['baseUrl', 10n],
    ['baseUrl', Symbol('url')],
    ['baseUrl', 5],
    ['baseUrl', '/api/v1'],
    ['baseUrl', 'ftp://partner.test/api/v1'],
    ['baseUrl', 'https://ana:pass-word-secret@partner.test/api/v1'],
    ['baseUrl', 'https://partner.test/api/v1?key=1'],
    ['baseUrl', 'https://partner.test/api/v1#top'],
    ['timeout', -1],
    ['timeout', Number.NaN],
    ['timeout', Number.POSITIVE_INFINITY],
    ['timeout', Symbol('ms')],
    ['timeout', { toString: () => fail('toString') }],
    ['totalTimeout', Symbol('ms')],
    ['maxRetries', 1.5],
    ['maxRetries', -1],
    ['maxRetries', Symbol('n')],
    ['maxResponseBytes', Symbol('n')],
    ['fetch', 'fetch'],
    ['logger', {}],
    ['logger', { error() {}, warn() {} }],
    ['logger', null],
    ['logger', 5],
    ['logLevel', 3],
    ['logLevel', null],
    ['logLevel', Symbol('level')],
    ['clientToken', 5],
    ['clientToken', {}],
    ['clientToken', ['client-token']],
    ['defaultHeaders', ['x-extra']],
    ['validateResponses', Symbol('mode')],
    // `null` is refused as every other option refuses it, not read as the default.
    ['validateResponses', null],
    ['telemetry', 'off'],
    ['telemetry', true],
    ['telemetry', null],
    ['telemetry', ['tracer']],
    ['telemetry', { tracerProvider: {} }],
    ['telemetry', { meterProvider: 5 }],
    ['telemetry', { recordIds: 'yes' }],
  ];

  it.each(WRONG)('`%s`: %o is refused at construction, naming the option', (name, value) => {
    const error = construction({ ...TOKEN, [name]: value });
    expect(error.message).toContain(`\`${name}\``);
    expect(error.message).not.toContain('pass-word-secret');
  });

  it.each([
    ['clientId', 5],
    ['clientId', Symbol('id')],
    ['clientSecret', 5],
    ['clientSecret', {}],
  ])('`%s`: %o is refused at construction, naming the option', (name, value) => {
    const error = construction({
      baseUrl: BASE_URL,
      clientId: 'client-id',
      clientSecret: 'client-secret-value',
      [name]: value,
    });
    expect(error.message).toContain(`\`${name}\``);
  });

  it('a refused secret of the wrong type leaves every later message whole', () => {
    construction({ baseUrl: BASE_URL, clientId: 'id', clientSecret: Symbol('a long secret') });
    construction({
      baseUrl: BASE_URL,
      clientId: 'id',
      clientSecret: ['a', 'b', 'c', 'd', 'e', 'f'],
    });
    expect(construction({ baseUrl: BASE_URL }).message).toContain('no credentials');
  });

  it('an option name from another SDK is refused, with the name it meant', () => {
    const error = construction({ ...TOKEN, baseURL: 'https://elsewhere.test/api/v1' });
    expect(error.message).toContain('`baseURL`');
    expect(error.message).toContain('`baseUrl`');
  });

  it('whatever an option is given, construction succeeds or throws the SDK error', () => {
    const names = ['baseUrl', 'clientToken', 'timeout', 'maxRetries', 'fetch', 'logger'];
    let runs = 0;
    fc.assert(
      fc.property(fc.constantFrom(...names), anyValue, (name, value) => {
        runs += 1;
        try {
          new PartnerClient({ ...TOKEN, [name]: value } as never);
        } catch (error) {
          expect(error).toBeInstanceOf(PartnerError);
        }
      }),
      { numRuns: 300 },
    );
    expect(runs).toBe(300);
  });
});

function fail(what: string): never {
  throw new Error(`the caller's own ${what} threw`);
}

describe('withOptions from plain JavaScript', () => {
  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a string', 'fast'],
    ['an array', []],
    ['a misspelt key', { timout: 5_000 }],
  ])('refuses %s, naming it, nothing sent', async (_, changes) => {
    const { client, sent } = await start();
    const outcome = await outcomeOf(() => client.withOptions(changes as never).products.list());
    expect(outcome.kind).toBe('refused');
    if (outcome.kind === 'refused') expect(outcome.error.message).toMatch(/withOptions|timout/);
    expect(sent()).toEqual([]);
  });
});
