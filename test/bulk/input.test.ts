/**
 * Bulk jobs called wrongly from plain JavaScript: a string where the items go (iterable, by
 * character), a client that is none, options that are no object, an option no job knows (a
 * misspelt `concurency`), request options no call can take and poll options no wait can take are
 * refused at once with `RequestValidationError`, nothing sent.
 */

import type { PartnerClient, RequestValidationError } from 'partner-sdk';
import { requestRefunds, runBulk, updateOffers, waitForRefunds } from 'partner-sdk/bulk';
import { describe, expect, it } from 'vitest';
import { hostileService, outcomeOf } from '../helpers/hostile-inputs';

const start = hostileService();

describe('bulk jobs from plain JavaScript', () => {
  it('refuse one hash given as the items, instead of an item per character', async () => {
    const { seller, sent } = await start();
    const outcome = await outcomeOf(() => requestRefunds(seller, 'tx_1' as never));
    expect(outcome.kind === 'refused' && outcome.error.name).toBe('RequestValidationError');
    expect(outcome.kind === 'refused' && outcome.error.message).toContain('not a string');
    const offers = await outcomeOf(() => updateOffers(seller, 'prd_1' as never));
    expect(offers.kind).toBe('refused');
    expect(sent()).toEqual([]);
  });

  it.each([
    ['null', null],
    ['a number', 5],
  ])('refuse options that are %s, nothing sent', async (_, options) => {
    const { seller, sent } = await start();
    const run = () =>
      runBulk(
        ['prd_1'],
        { key: (hash) => hash, run: (hash) => seller.products.retrieve(hash) },
        options as never,
      );
    const outcome = await outcomeOf(run);
    expect(outcome.kind === 'refused' && outcome.error.name).toBe('RequestValidationError');
    expect(sent()).toEqual([]);
  });

  /** The three operations, each over one valid item, with `client` and `options` as given. */
  const operations = {
    requestRefunds: (client: unknown, options: unknown) =>
      requestRefunds(client as never, ['tx_1'], options as never),
    waitForRefunds: (client: unknown, options: unknown) =>
      waitForRefunds(client as never, ['tx_1'], options as never),
    updateOffers: (client: unknown, options: unknown) =>
      updateOffers(
        client as never,
        [{ productHash: 'prd_1', offerCode: 'off_1', params: { price: 4_990 } }],
        options as never,
      ),
  };

  it.each(
    Object.entries(operations).flatMap(([name, operation]) =>
      [undefined, null, 'client', {}, { refunds: {} }].map(
        (client) => [name, String(client && JSON.stringify(client)), operation, client] as const,
      ),
    ),
  )('%s refuses a client that is %s, naming it, nothing sent', async (_, __, operation, client) => {
    const { sent } = await start();
    const outcome = await outcomeOf(() => operation(client, {}));
    expect(outcome.kind === 'refused' && outcome.error.name).toBe('RequestValidationError');
    expect(
      outcome.kind === 'refused' && (outcome.error as RequestValidationError).issues[0]?.path,
    ).toEqual(['client']);
    expect(sent()).toEqual([]);
  });

  it.each(Object.entries(operations))(
    '%s refuses null options, and options that are no object, nothing sent',
    async (_, operation) => {
      const { seller, sent } = await start();
      for (const options of [null, 5, 'fast', []]) {
        const outcome = await outcomeOf(() => operation(seller, options));
        expect(outcome.kind === 'refused' && outcome.error.name).toBe('RequestValidationError');
        expect(outcome.kind === 'refused' && outcome.error.message).toContain(
          'expected an object of options',
        );
      }
      expect(sent()).toEqual([]);
    },
  );

  it.each([
    ...Object.entries(operations).map(([name, operation]) => [name, operation] as const),
    [
      'runBulk',
      (client: unknown, options: unknown) =>
        runBulk(
          ['prd_1'],
          {
            key: (hash) => hash,
            run: (hash) => (client as PartnerClient).products.retrieve(hash),
          },
          options as never,
        ),
    ] as const,
  ])(
    '%s refuses an option it does not know, naming it and the one it likely meant, nothing sent',
    async (_, operation) => {
      const { seller, sent } = await start();
      const outcome = await outcomeOf(() => operation(seller, { concurency: 16, dryRun: false }));
      expect(outcome.kind === 'refused' && outcome.error.name).toBe('RequestValidationError');
      expect(outcome.kind === 'refused' && outcome.error.message).toContain(
        '`concurency` is not an option; did you mean `concurrency`?',
      );
      expect(
        outcome.kind === 'refused' && (outcome.error as RequestValidationError).issues[0]?.path,
      ).toEqual(['concurency']);
      expect(sent()).toEqual([]);
    },
  );

  it("refuses one operation's option given to another, and takes each its own", async () => {
    const { seller, sent } = await start();
    const misplaced = [
      () => waitForRefunds(seller, ['tx_1'], { params: { reason: 'x' } } as never),
      () => updateOffers(seller, [], { unlessRefunded: true } as never),
      () => requestRefunds(seller, ['tx_1'], { pollOptions: {} } as never),
      () => requestRefunds(seller, ['tx_1'], { unlesRefunded: true } as never),
    ];
    for (const call of misplaced) {
      const outcome = await outcomeOf(call);
      expect(outcome.kind === 'refused' && outcome.error.message).toMatch(/is not an option/);
    }
    const own = await requestRefunds(seller, ['tx_1'], {
      params: { reason: 'Pedido do cliente' },
      unlessRefunded: false,
      dryRun: true,
    });
    expect(own.valid).toBe(1);
    const waits = await waitForRefunds(seller, ['tx_1'], { pollOptions: {}, dryRun: true });
    expect(waits.valid).toBe(1);
    expect(sent()).toEqual([]);
  });

  it('waitForRefunds refuses poll options no wait can read at once, not once per item', async () => {
    const { seller, sent } = await start();
    for (const pollOptions of [{ timout: 60_000 }, { interval: -1 }, 'slow']) {
      const outcome = await outcomeOf(() =>
        waitForRefunds(seller, ['tx_1', 'tx_2'], { pollOptions: pollOptions as never }),
      );
      expect(outcome.kind === 'refused' && outcome.error.name).toBe('RequestValidationError');
    }
    expect(sent()).toEqual([]);
  });

  it('refuses request options a call would refuse once per item, at once, naming the key', async () => {
    const { seller, sent } = await start();
    for (const [requestOptions, path] of [
      [{ timout: 5_000 }, ['requestOptions', 'timout']],
      [{ maxRetries: 2 }, ['requestOptions', 'maxRetries']],
      ['fast', ['requestOptions']],
    ] as const) {
      const outcome = await outcomeOf(() =>
        requestRefunds(seller, ['tx_1', 'tx_2'], { requestOptions: requestOptions as never }),
      );
      expect(outcome.kind === 'refused' && outcome.error.name).toBe('RequestValidationError');
      expect(
        outcome.kind === 'refused' && (outcome.error as RequestValidationError).issues[0]?.path,
      ).toEqual(path);
    }
    const taken = await requestRefunds(seller, ['tx_1'], {
      requestOptions: { timeout: 5_000, totalTimeout: 10_000, headers: { 'x-trace': '1' } },
      dryRun: true,
    });
    expect(taken.valid).toBe(1);
    expect(sent()).toEqual([]);
  });

  it.each([
    [
      'an option no call has',
      { timout: 1_000 },
      /`timout` is not an option; did you mean `timeout`\?/,
    ],
    ['a time-out out of range', { timeout: -1 }, /`timeout` must be a positive/],
    ['headers as an array', { headers: [['x-a', 'b']] }, /`headers` must be an object/],
    ['no object', 'fast', /expected an object/],
  ])(
    'refuse requestOptions holding %s as the job is made, not item by item',
    async (_, requestOptions, words) => {
      const { seller, sent } = await start();
      const outcome = await outcomeOf(() =>
        requestRefunds(seller, ['tx_1', 'tx_2'], { requestOptions: requestOptions as never }),
      );
      expect(outcome.kind === 'refused' && outcome.error.name).toBe('RequestValidationError');
      const issues =
        outcome.kind === 'refused' ? (outcome.error as RequestValidationError).issues : [];
      // Under `requestOptions`: at the option itself when it is one no job passes on.
      expect(issues[0]?.path[0]).toBe('requestOptions');
      expect(issues[0]?.message).toMatch(words);
      expect(sent()).toEqual([]);
    },
  );

  it.each([
    [
      'an option no wait has',
      { intervall: 5 },
      /`intervall` is not an option; did you mean `interval`\?/,
    ],
    ['an interval out of range', { interval: -1 }, /positive number of milliseconds/],
    ['no object', 'slow', /expected an object/],
  ])(
    'waitForRefunds refuses pollOptions holding %s as the job is made, not item by item',
    async (_, pollOptions, words) => {
      const { seller, sent } = await start();
      const outcome = await outcomeOf(() =>
        waitForRefunds(seller, ['tx_1', 'tx_2'], { pollOptions: pollOptions as never }),
      );
      expect(outcome.kind === 'refused' && outcome.error.name).toBe('RequestValidationError');
      expect(outcome.kind === 'refused' && outcome.error.message).toMatch(words);
      expect(sent()).toEqual([]);
    },
  );
});
