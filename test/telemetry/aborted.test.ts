import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { createMockPartnerApi } from '../../src/testing/index';
import { spanTree, useOtel } from '../helpers/otel-harness';
import { kit } from '../helpers/virtual-kit';

const otel = useOtel();

describe('a call the caller aborts, traced with the real OpenTelemetry SDK', () => {
  it('ends its attempt and its call as failed, named by the abort and not by a message', async () => {
    const mock = createMockPartnerApi();
    let sent!: () => void;
    const inFlight = new Promise<void>((resolve) => {
      sent = resolve;
    });
    const hanging = (input: Request | URL | string, init?: RequestInit) => {
      const request = new Request(input, init);
      if (!request.url.includes('/products/')) return mock.fetch(request);
      sent();
      return new Promise<Response>((_, reject) => {
        request.signal.addEventListener('abort', () => reject(request.signal.reason));
      });
    };
    const { client } = kit({ fetch: hanging }, mock);
    const controller = new AbortController();
    const call = client.products.retrieve(mock.products.ebook.hash, { signal: controller.signal });
    await inFlight;
    controller.abort(new Error('caller left, see /products/prd_secret'));
    const error = await call.catch((failure: unknown) => failure);
    const [span] = spanTree(otel().spans()).filter((view) => view.name === 'products.retrieve');
    const attempt = span?.children.find((child) => child.kind === SpanKind.CLIENT);
    expect(span?.status).toBe(SpanStatusCode.ERROR);
    expect(attempt?.status).toBe(SpanStatusCode.ERROR);
    expect((error as Error).name).toBe('APIUserAbortError');
    expect(span?.attributes['error.type']).toBe('APIUserAbortError');
    // The reason's class is the caller's own (here a bare Error): the attempt is named by the abort.
    expect(attempt?.attributes['error.type']).toBe('AbortError');
    expect(
      JSON.stringify(
        otel()
          .spans()
          .map((view) => view.attributes),
      ),
    ).not.toContain('prd_secret');
  });
});
