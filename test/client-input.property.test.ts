/**
 * Every public method of the client, given anything at all (`fc.anything()` in each argument, as a
 * plain JavaScript caller or JSON read from a file may): it sends a request made of text, or rejects
 * with the SDK's own error, whose message quotes no secret. Never a `TypeError` from inside, never
 * a request carrying `undefined`, `[object Object]` or `Symbol(…)`.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  anyValue,
  HOSTILE_SECRETS,
  hostileService,
  hostileValues,
  outcomeOf,
  sentAsText,
} from './helpers/hostile-inputs';
import { assertWithinBudget } from './helpers/property-budget';

const start = hostileService();

type Seller = Awaited<ReturnType<typeof start>>['seller'];
type Client = Awaited<ReturnType<typeof start>>['client'];

/** Every method of the client, each called with the generated arguments in its places. */
const METHODS: [string, (c: { seller: Seller; client: Client }, a: unknown[]) => unknown][] = [
  ['products.retrieve', ({ seller }, a) => seller.products.retrieve(...(a as [never, never]))],
  ['products.list', ({ seller }, a) => seller.products.list(...(a as [never, never]))],
  ['offers.update', ({ seller }, a) => seller.offers.update(...(a as [never, never, never]))],
  ['refunds.request', ({ seller }, a) => seller.refunds.request(...(a as [never, never]))],
  ['refunds.list', ({ seller }, a) => seller.refunds.list(...(a as [never, never]))],
  ['refunds.retrieveStatus', ({ seller }, a) => seller.refunds.retrieveStatus(...(a as [never]))],
  [
    'refunds.waitForCompletion',
    ({ seller }, a) => seller.refunds.waitForCompletion(...(a as [never])),
  ],
  ['refunds.requestAndWait', ({ seller }, a) => seller.refunds.requestAndWait(...(a as [never]))],
  ['statements.export', ({ seller }, a) => seller.statements.export(...(a as [never, never]))],
  ['statements.retrieve', ({ seller }, a) => seller.statements.retrieve(...(a as [never]))],
  [
    'statements.waitForExport',
    ({ seller }, a) => seller.statements.waitForExport(...(a as [never])),
  ],
  ['statements.download', ({ seller }, a) => seller.statements.download(...(a as [never]))],
  [
    'anticipations.confirm',
    ({ seller }, a) => seller.anticipations.confirm(...(a as [never, never])),
  ],
  ['anticipations.list', ({ seller }, a) => seller.anticipations.list(...(a as [never]))],
  ['feeTiers.history', ({ seller }, a) => seller.feeTiers.history(...(a as [never]))],
  ['bankAccounts.update', ({ seller }, a) => seller.bankAccounts.update(...(a as [never, never]))],
  ['users.update', ({ seller }, a) => seller.users.update(...(a as [never]))],
  ['request', ({ seller }, a) => seller.request(...(a as [never]))],
  ['forUser', ({ client }, a) => client.forUser(a[0] as never).feeTiers.history()],
  ['withOptions', ({ client }, a) => client.withOptions(a[0] as never).feeTiers.history()],
];

describe('every method, whatever it is given (property)', () => {
  it.each(METHODS)(
    '%s sends a request of text or rejects with the SDK error',
    async (name, call) => {
      const service = await start();
      let runs = 0;
      await assertWithinBudget(
        fc.asyncProperty(fc.array(anyValue, { maxLength: 4 }), async (args) => {
          runs += 1;
          const before = service.sent().length;
          const outcome = await outcomeOf(() => call(service, args));
          expect(
            outcome.kind,
            `${name}: ${String(outcome.kind === 'broken' && outcome.error)}`,
          ).not.toBe('broken');
          if (outcome.kind === 'refused') {
            expect(outcome.error.message).not.toContain(HOSTILE_SECRETS.clientToken);
            expect(outcome.error.message).not.toContain(HOSTILE_SECRETS.publicToken);
          }
          expect(sentAsText(service.sent().slice(before))).toEqual([]);
        }),
        { numRuns: 150, minRuns: 20 },
      );
      expect(runs).toBeGreaterThanOrEqual(20);
    },
  );
});

/** Each method's params argument, the others valid. */
const PARAMS: [string, (seller: Seller, params: never) => unknown][] = [
  ['products.list', (s, p) => s.products.list(p)],
  ['anticipations.list', (s, p) => s.anticipations.list(p)],
  ['offers.update', (s, p) => s.offers.update('prd_1', 'off_1', p)],
  ['refunds.request', (s, p) => s.refunds.request('tx_1', p)],
  ['refunds.requestAndWait', (s, p) => s.refunds.requestAndWait('tx_1', p)],
  ['bankAccounts.update', (s, p) => s.bankAccounts.update('acc_1', p)],
  ['users.update', (s, p) => s.users.update(p)],
  ['statements.export', (s, p) => s.statements.export(p)],
  ['anticipations.confirm', (s, p) => s.anticipations.confirm('ant_1', p)],
];

describe.each(PARAMS)('%s params from plain JavaScript', (_, call) => {
  it.each(hostileValues())('as %s are refused, nothing sent', async (_, params) => {
    const { seller, sent } = await start();
    expect((await outcomeOf(() => call(seller, params as never))).kind).toBe('refused');
    expect(sent()).toEqual([]);
  });
});

/** Each method's first path parameter, the rest valid. */
const PATH_PARAMS: [string, (seller: Seller, hash: never) => unknown][] = [
  ['products.retrieve', (s, h) => s.products.retrieve(h)],
  ['offers.update', (s, h) => s.offers.update(h, 'off_1', { price: 100 })],
  ['refunds.request', (s, h) => s.refunds.request(h)],
  ['refunds.list', (s, h) => s.refunds.list(h)],
  ['refunds.retrieveStatus', (s, h) => s.refunds.retrieveStatus(h)],
  ['refunds.waitForCompletion', (s, h) => s.refunds.waitForCompletion(h)],
  ['statements.retrieve', (s, h) => s.statements.retrieve(h)],
  ['statements.waitForExport', (s, h) => s.statements.waitForExport(h)],
  ['bankAccounts.update', (s, h) => s.bankAccounts.update(h, { holder_name: 'Ana' })],
  ['anticipations.confirm', (s, h) => s.anticipations.confirm(h, { scenario: 'above' })],
];

// A number is sent as its digits, an id the service may well have: not among the wrong values here.
const NOT_A_HASH = hostileValues().filter(([name]) => name !== 'a number');

describe.each(PATH_PARAMS)('%s path parameter from plain JavaScript', (_, call) => {
  it.each(NOT_A_HASH)('as %s is refused, nothing sent', async (name, hash) => {
    const { seller, sent } = await start();
    const outcome = await outcomeOf(() => call(seller, hash as never));
    expect(outcome.kind).toBe('refused');
    // A Proxy's own trap may throw first, where a wait reads an object's fields.
    if (name !== 'a Proxy') {
      expect(outcome.kind === 'refused' && outcome.error.name).toBe('RequestValidationError');
    }
    expect(sent()).toEqual([]);
  });
});
