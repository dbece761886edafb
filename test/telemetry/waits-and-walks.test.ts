import { SpanStatusCode, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { PollTimeoutError } from '../../src/index';
import { createMockPartnerApi } from '../../src/testing/index';
import { spanTree, useOtel } from '../helpers/otel-harness';
import { kit } from '../helpers/virtual-kit';

const otel = useOtel();

describe('telemetry of polls and paginated walks', () => {
  it('records a poll as one span for the wait, an event per status and a call span per poll under it', async () => {
    const { mock, seller } = kit();
    const transaction = mock.addTransaction(2500);
    mock.refundOutcome(transaction, 'completed', { polls: 2 });
    await seller.refunds.request(transaction);
    otel().exporter.reset();
    const final = await seller.refunds.waitForCompletion(transaction, {
      interval: 1,
      maxInterval: 2,
    });
    expect(final.status).toBe('completed');
    const [wait, ...others] = spanTree(otel().spans());
    expect(others).toEqual([]);
    expect(wait!.name).toBe('refunds.waitForCompletion');
    const statuses = wait!.events.map((event) => event.attributes['partner_sdk.poll.status']);
    expect(statuses[0]).toBe('requested');
    expect(statuses.at(-1)).toBe('completed');
    expect(new Set(statuses).size).toBe(statuses.length);
    expect(wait!.children.length).toBeGreaterThanOrEqual(3);
    for (const poll of wait!.children) {
      expect(poll.name).toBe('refunds.retrieveStatus');
      expect(poll.children[0]!.attributes['url.template']).toBe(
        '/financial/refund/{transactionHash}/status',
      );
    }
  });

  it('marks a poll that timed out as failed with its error class', async () => {
    const { mock, seller } = kit();
    const transaction = mock.addTransaction(2500);
    mock.refundOutcome(transaction, 'completed', { polls: 1_000 });
    await seller.refunds.request(transaction);
    await expect(
      seller.refunds.waitForCompletion(transaction, { interval: 1, timeout: 20 }),
    ).rejects.toBeInstanceOf(PollTimeoutError);
    const wait = spanTree(otel().spans()).find((span) => span.name === 'refunds.waitForCompletion');
    expect(wait?.status).toBe(SpanStatusCode.ERROR);
    expect(wait?.attributes['error.type']).toBe('PollTimeoutError');
  });

  it('records each page a walk fetches as a call with a page event', async () => {
    const { mock, client } = kit();
    const names: string[] = [];
    for await (const product of client.products.list({ per_page: 1 }))
      names.push(String(product.name));
    expect(names).toHaveLength(mock.products.hashes.length);
    const pages = spanTree(otel().spans()).filter((span) => span.name === 'products.list');
    expect(pages).toHaveLength(mock.products.hashes.length);
    expect(pages[0]!.events.filter((event) => event.name === 'partner_sdk.page')).toEqual([]);
    expect(pages.slice(1).map((page) => page.events.at(-1))).toEqual(
      pages.slice(1).map((_, index) => ({
        name: 'partner_sdk.page',
        attributes: { 'partner_sdk.page.number': index + 2 },
      })),
    );
    for (const page of pages)
      expect(page.children.at(-1)!.attributes['url.template']).toBe('/products');
  });

  it('records a page asked for by number as a page event too, and none for a first page asked for by none', async () => {
    const { client } = kit();
    await client.products.list({ per_page: 1 });
    await client.products.list({ page: 2, per_page: 1 });
    const [first, second] = spanTree(otel().spans()).filter(
      (span) => span.name === 'products.list',
    );
    const pageEvents = (span: typeof first) =>
      span!.events.filter((event) => event.name === 'partner_sdk.page');
    expect(pageEvents(first)).toEqual([]);
    expect(pageEvents(second)).toEqual([
      { name: 'partner_sdk.page', attributes: { 'partner_sdk.page.number': 2 } },
    ]);
  });
  it('keeps concurrent walks and waits each under its own parent span, page by page', async () => {
    const { mock, client, seller } = kit();
    const transaction = mock.addTransaction(2500);
    mock.refundOutcome(transaction, 'completed', { polls: 3 });
    await seller.refunds.request(transaction);
    // The setup's call span has ended with the call, before the spans below are counted.
    expect(
      otel()
        .spans()
        .map((span) => span.name),
    ).toContain('refunds.request');
    otel().exporter.reset();
    const tracer = trace.getTracer('partner-app');
    const walk = (n: number) =>
      tracer.startActiveSpan(`walk ${n}`, async (parent) => {
        for await (const _ of client.products.list({ per_page: 1 }));
        parent.end();
      });
    const wait = (n: number) =>
      tracer.startActiveSpan(`wait ${n}`, async (parent) => {
        await seller.refunds.waitForCompletion(transaction, { interval: 1, maxInterval: 2 });
        parent.end();
      });
    await Promise.all([1, 2, 3].flatMap((n) => [walk(n), wait(n)]));
    // The unit project shares one process: a call another file left running may end here under
    // this test's provider. Only the spans this test's calls make are judged, and none is a root.
    const all = spanTree(otel().spans());
    const roots = all.filter((root) => /^(walk|wait) \d$/.test(root.name));
    expect(roots.map((root) => root.name).sort()).toEqual(
      ['walk 1', 'walk 2', 'walk 3', 'wait 1', 'wait 2', 'wait 3'].sort(),
    );
    const ownCalls = ['products.list', 'refunds.waitForCompletion', 'refunds.retrieveStatus'];
    expect(all.filter((root) => ownCalls.includes(root.name))).toEqual([]);
    for (const root of roots) {
      if (root.name.startsWith('walk')) {
        expect(root.children.map((child) => child.name)).toEqual(
          mock.products.hashes.map(() => 'products.list'),
        );
      } else {
        expect(root.children.map((child) => child.name)).toEqual(['refunds.waitForCompletion']);
      }
    }
  });
  it('records an export wait as one span, its statuses as events, a statements.retrieve per poll', async () => {
    const { seller } = kit({}, createMockPartnerApi({ exportPolls: 2 }));
    const exported = await seller.statements.export({
      format: 'csv',
      filter: { betweenDates: { start: '2026-01-01', end: '2026-01-31' } },
    });
    otel().exporter.reset();
    const finished = await seller.statements.waitForExport(exported, { interval: 1 });
    expect(finished.url).toBeTruthy();
    const [wait, ...others] = spanTree(otel().spans());
    expect(others).toEqual([]);
    expect(wait!.name).toBe('statements.waitForExport');
    expect(wait!.events.length).toBeGreaterThan(0);
    for (const event of wait!.events) {
      expect(event.name).toBe('partner_sdk.poll.status');
      expect(typeof event.attributes['partner_sdk.poll.status']).toBe('string');
    }
    expect(wait!.children.length).toBeGreaterThanOrEqual(2);
    for (const poll of wait!.children) expect(poll.name).toBe('statements.retrieve');
    const durations = (await otel().points()).filter(
      (point) => point.metric === 'partner_sdk.operation.duration',
    );
    const operations = durations.map((point) => point.attributes['partner_sdk.operation']);
    expect(operations).not.toContain('statements.waitForExport');
    const polls = durations.find(
      (point) => point.attributes['partner_sdk.operation'] === 'statements.retrieve',
    );
    expect(polls?.value).toBe(wait!.children.length);
  });
});
