/**
 * The real OpenTelemetry SDK, registered globally the way a partner's app registers it: an
 * in-memory span exporter, a metric reader the test collects from, and the async-hooks context
 * manager. `useOtel()` registers it before each test and removes it after (the unit project shares
 * one process, so nothing may stay registered).
 */

import { type ContextManager, context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { DataPointType, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach } from 'vitest';

class CollectingReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** One data point of a metric, flattened: its attributes and its value (a sum, or a histogram's count). */
export interface Point {
  metric: string;
  attributes: Record<string, unknown>;
  value: number;
}

export interface Otel {
  exporter: InMemorySpanExporter;
  tracerProvider: BasicTracerProvider;
  meterProvider: MeterProvider;
  /** Finished spans, oldest first. */
  spans(): ReadableSpan[];
  /** Every metric data point collected now. */
  points(): Promise<Point[]>;
  /** Each metric collected now, by name: its unit (`s`, `{retry}`…) and kind (`HISTOGRAM`, `SUM`…). */
  instruments(): Promise<Record<string, [unit: string, kind: string]>>;
  /** Each histogram collected now, by name: the upper bounds of its buckets. */
  boundaries(): Promise<Record<string, number[]>>;
}

/** Makes (but does not register) a tracer provider and a meter provider over in-memory sinks. */
export function makeOtel(): Otel {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    exporter,
    tracerProvider,
    meterProvider,
    spans: () => exporter.getFinishedSpans(),
    async instruments() {
      const { resourceMetrics } = await reader.collect();
      const metrics = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
      return Object.fromEntries(
        metrics.map((metric) => [
          metric.descriptor.name,
          [metric.descriptor.unit, String(DataPointType[metric.dataPointType])],
        ]),
      );
    },
    async boundaries() {
      const { resourceMetrics } = await reader.collect();
      const metrics = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
      return Object.fromEntries(
        metrics.flatMap((metric) =>
          metric.dataPointType === DataPointType.HISTOGRAM
            ? [[metric.descriptor.name, [...metric.dataPoints[0]!.value.buckets.boundaries]]]
            : [],
        ),
      );
    },
    async points() {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics.flatMap((scope) =>
        scope.metrics.flatMap((metric) =>
          metric.dataPoints.map((point) => ({
            metric: metric.descriptor.name,
            attributes: { ...point.attributes },
            value:
              typeof point.value === 'number'
                ? point.value
                : (point.value as { count: number }).count,
          })),
        ),
      );
    },
  };
}

/** Registers a fresh {@link makeOtel} globally around each test of the calling file. */
export function useOtel(): () => Otel {
  let current: Otel | undefined;
  beforeEach(() => {
    current = makeOtel();
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(current.tracerProvider);
    metrics.setGlobalMeterProvider(current.meterProvider);
  });
  afterEach(async () => {
    trace.disable();
    metrics.disable();
    context.disable();
    await current?.tracerProvider.shutdown();
    await current?.meterProvider.shutdown();
    current = undefined;
  });
  return () => {
    if (!current) throw new Error('useOtel() is set up in beforeEach');
    return current;
  };
}

/** A span as a test reads it: name, kind, attributes, events (name and attributes), status. */
export interface SpanView {
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  status: number;
  children: SpanView[];
}

/** The finished spans as trees, roots first in start order, children in start order. */
export function spanTree(spans: readonly ReadableSpan[]): SpanView[] {
  const sorted = [...spans].sort((a, b) => compareTime(a.startTime, b.startTime));
  const views = new Map<string, SpanView>();
  for (const span of sorted) {
    views.set(span.spanContext().spanId, {
      name: span.name,
      kind: span.kind,
      attributes: { ...span.attributes },
      events: span.events.map((event) => ({
        name: event.name,
        attributes: { ...event.attributes },
      })),
      status: span.status.code,
      children: [],
    });
  }
  const roots: SpanView[] = [];
  for (const span of sorted) {
    const view = views.get(span.spanContext().spanId)!;
    const parent = span.parentSpanContext?.spanId;
    const parentView = parent === undefined ? undefined : views.get(parent);
    (parentView ? parentView.children : roots).push(view);
  }
  return roots;
}

function compareTime(a: [number, number], b: [number, number]): number {
  return a[0] - b[0] || a[1] - b[1];
}

/** A tree as indented text: `name {attributes}` and `· event {attributes}` lines, for docs and eyes. */
export function renderTree(views: readonly SpanView[], depth = 0): string {
  const lines: string[] = [];
  const pad = '  '.repeat(depth);
  for (const view of views) {
    lines.push(
      `${pad}${view.name}${format(view.attributes)}${view.status === 2 ? ' [ERROR]' : ''}`,
    );
    for (const event of view.events)
      lines.push(`${pad}  · ${event.name}${format(event.attributes)}`);
    lines.push(renderTree(view.children, depth + 1));
  }
  return lines.filter((line) => line !== '').join('\n');
}

function format(attributes: Record<string, unknown>): string {
  const entries = Object.entries(attributes);
  if (entries.length === 0) return '';
  return ` { ${entries.map(([key, value]) => `${key}: ${JSON.stringify(value)}`).join(', ')} }`;
}

/** Names only, as nested arrays: `['refunds.request', ['POST /financial/refund/{transactionHash}']]`. */
export function shape(views: readonly SpanView[]): unknown[] {
  return views.flatMap((view) =>
    view.children.length === 0 ? [view.name] : [view.name, shape(view.children)],
  );
}

/**
 * A context manager whose every use throws, as a zone-based manager does where zone.js is not
 * loaded: what a partner's broken setup registers.
 */
export function throwingContextManager(): ContextManager {
  const broken = () => {
    throw new ReferenceError('Zone is not defined');
  };
  const manager = {
    active: broken,
    with: broken,
    bind: broken,
    enable: () => manager,
    disable: () => manager,
  };
  return manager as unknown as ContextManager;
}
