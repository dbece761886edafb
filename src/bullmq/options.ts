/**
 * The options of this entry's helpers, checked when a helper is called (a processor when it is
 * made, not at its first job), before anything is enqueued or any Redis command is sent: a wrong
 * one is refused with `RequestValidationError` naming it and its bound, as a bulk job's options
 * are. A refused value is quoted only when it is a number: a header or a batch id may carry what
 * should never reach a log.
 *
 * @module
 */

import { requestOptionsIssue } from '../core/options/request-options-shape';
import { isTimerDelay, MAX_TIMER_MS } from '../core/time/clock';
import { MAX_SELLER_LENGTH } from './job-client';
import { has, Issues, isObject, whole } from './option-issues';

/** An `ioredis` client (`call`) or a `redis` one (`sendCommand`). */
const isRedisClient = (value: unknown): boolean => has(value, 'call') || has(value, 'sendCommand');

const REDIS_CLIENT = 'a Redis client (ioredis, or a connected `redis` client)';

/**
 * A batch id is part of its record's Redis key (`…batch:{<queue>/<batch>}:jobs`): a brace would
 * move the key's hash slot on a Redis Cluster, a slash could make two queues' batches one key,
 * and spaces or control characters make the key unreadable in a log or `redis-cli`.
 */
const BATCH_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const BATCH_ID_WANTED = "1 to 128 letters, digits, '.', '_', ':' or '-'";

function checkBatchId(issues: Issues, batchId: unknown): void {
  issues.need(
    typeof batchId === 'string' && BATCH_ID.test(batchId),
    ['batchId'],
    BATCH_ID_WANTED,
    batchId,
  );
}

/** A queue's name as BullMQ's `Queue` takes it (not empty, no `:`, its keys' separator): it keys a batch too. */
const QUEUE_NAME = /^[^:]+$/;

function checkQueueName(issues: Issues, name: unknown): void {
  const wanted = "a BullMQ queue name: a non-empty string without ':'";
  issues.need(typeof name === 'string' && QUEUE_NAME.test(name), ['queue', 'name'], wanted, name);
}

/** BullMQ job options: an object, never `jobId`, and no setting said again by our own options. */
function checkJobOptions(
  issues: Issues,
  jobOptions: unknown,
  options: Record<string, unknown>,
): void {
  issues.need(isObject(jobOptions), ['jobOptions'], 'an object of BullMQ job options', jobOptions);
  if (isObject(jobOptions) && jobOptions.jobId !== undefined) {
    issues.add(
      ['jobOptions', 'jobId'],
      'is set from each item (a transaction is one job): leave it out',
    );
  }
  // One setting, said twice: whichever won would silently drop the other.
  for (const [own, bullmq] of [
    ['attempts', 'attempts'],
    ['backoffMs', 'backoff'],
  ] as const) {
    if (isObject(jobOptions) && options[own] !== undefined && jobOptions[bullmq] !== undefined) {
      issues.add(['jobOptions', bullmq], `says again what \`${own}\` says: give one of them`);
    }
  }
}

/** The call's `seller`: a reference of the partner's own, never quoted (it could be a token by mistake). */
function checkSeller(issues: Issues, seller: unknown): void {
  const reference =
    typeof seller === 'string' && seller !== '' && seller.length <= MAX_SELLER_LENGTH;
  const wanted = `a seller reference of 1 to ${MAX_SELLER_LENGTH} characters`;
  issues.need(reference, ['seller'], wanted, seller);
}

/** The most tries a job may be given: far past what BullMQ's exponential back-off makes useful. */
const MAX_ATTEMPTS = 1_000;

/**
 * Checks an enqueue helper's queue, items and options (`where`: the helper's name).
 * @internal
 */
export function checkEnqueue(
  where: string,
  queue: unknown,
  items: unknown,
  options: unknown,
): void {
  const issues = new Issues(where);
  issues.need(Array.isArray(items), ['items'], 'an array of items', items);
  issues.need(has(queue, 'addBulk'), ['queue'], 'a BullMQ Queue (with addBulk)', queue);
  if (has(queue, 'addBulk')) checkQueueName(issues, (queue as { name?: unknown }).name);
  if (!isObject(options)) {
    issues.need(false, [], 'an options object', options);
    issues.check();
    return;
  }
  const { attempts, backoffMs, jobOptions, redis, batchId, seller } = options;
  if (seller !== undefined) checkSeller(issues, seller);
  if (attempts !== undefined) {
    issues.need(
      whole(attempts, 1, MAX_ATTEMPTS),
      ['attempts'],
      `a whole number from 1 to ${MAX_ATTEMPTS}`,
      attempts,
    );
  }
  if (backoffMs !== undefined) {
    const wanted = `a whole number of milliseconds from 0 to ${MAX_TIMER_MS}`;
    issues.need(whole(backoffMs, 0, MAX_TIMER_MS), ['backoffMs'], wanted, backoffMs);
  }
  if (jobOptions !== undefined) checkJobOptions(issues, jobOptions, options);
  if (redis !== undefined) issues.need(isRedisClient(redis), ['redis'], REDIS_CLIENT, redis);
  if (batchId !== undefined) checkBatchId(issues, batchId);
  issues.check();
}

/** The least `leaseMs`: a lease is renewed three times per `leaseMs`, each a Redis round trip. */
const MIN_LEASE_MS = 100;

/**
 * Checks a processor's options (`where`: the processor's name); `refund`: `refundProcessor`'s
 * own `redis` and `leaseMs` too.
 * @internal
 */
export function checkProcessor(where: string, options: unknown, refund: boolean): void {
  const issues = new Issues(where);
  if (!isObject(options)) {
    issues.need(false, [], 'an options object with the queue', options);
    issues.check();
    return;
  }
  const { queue, requestOptions, telemetry } = options;
  issues.need(
    has(queue, 'rateLimit'),
    ['queue'],
    "the worker's BullMQ Queue (with rateLimit)",
    queue,
  );
  if (requestOptions !== undefined) checkRequestOptions(issues, requestOptions);
  if (telemetry !== undefined) checkTelemetry(issues, telemetry);
  if (refund) {
    const { redis, leaseMs, unlessRefunded } = options;
    if (unlessRefunded !== undefined) {
      const boolean = typeof unlessRefunded === 'boolean';
      issues.need(boolean, ['unlessRefunded'], 'a boolean', unlessRefunded);
    }
    if (redis !== undefined) issues.need(isRedisClient(redis), ['redis'], REDIS_CLIENT, redis);
    if (leaseMs !== undefined) {
      const wanted = `a whole number of milliseconds from ${MIN_LEASE_MS} to ${MAX_TIMER_MS}`;
      issues.need(whole(leaseMs, MIN_LEASE_MS, MAX_TIMER_MS), ['leaseMs'], wanted, leaseMs);
    }
  }
  issues.check();
}

function checkRequestOptions(issues: Issues, requestOptions: unknown): void {
  if (!isObject(requestOptions)) {
    issues.need(
      false,
      ['requestOptions'],
      'an object (timeout, totalTimeout, headers)',
      requestOptions,
    );
    return;
  }
  // A processor takes what a call takes, by the client's own rules: its shape and its settings.
  const issue = requestOptionsIssue(requestOptions);
  if (issue) issues.add(['requestOptions'], issue);
}

function checkTelemetry(issues: Issues, telemetry: unknown): void {
  if (telemetry === false) return;
  if (!isObject(telemetry)) {
    issues.need(
      false,
      ['telemetry'],
      'false or { tracerProvider, meterProvider, recordIds }',
      telemetry,
    );
    return;
  }
  const { tracerProvider, meterProvider, recordIds } = telemetry;
  if (tracerProvider !== undefined) {
    const wanted = 'a TracerProvider (with getTracer)';
    issues.need(
      has(tracerProvider, 'getTracer'),
      ['telemetry', 'tracerProvider'],
      wanted,
      tracerProvider,
    );
  }
  if (meterProvider !== undefined) {
    const wanted = 'a MeterProvider (with getMeter)';
    issues.need(
      has(meterProvider, 'getMeter'),
      ['telemetry', 'meterProvider'],
      wanted,
      meterProvider,
    );
  }
  if (recordIds !== undefined) {
    issues.need(typeof recordIds === 'boolean', ['telemetry', 'recordIds'], 'a boolean', recordIds);
  }
}

/**
 * Checks `followBatch`'s queue and options; `batchId` given (a string or not) when it follows
 * one recorded batch, whose queue's name is checked as an enqueue helper checks it (the whole
 * queue's count never reads the name).
 * @internal
 */
export function checkFollow(
  queue: unknown,
  one: boolean,
  batchId: unknown,
  options: unknown,
): void {
  const issues = new Issues('followBatch');
  if (one) {
    issues.need(has(queue, 'toKey'), ['queue'], 'a BullMQ Queue (with toKey)', queue);
    if (has(queue, 'toKey')) checkQueueName(issues, (queue as { name?: unknown }).name);
    checkBatchId(issues, batchId);
  } else {
    issues.need(has(queue, 'getJobCounts'), ['queue'], 'a BullMQ Queue (with getJobCounts)', queue);
  }
  if (options !== undefined && !isObject(options)) {
    issues.need(false, [], 'an options object', options);
    issues.check();
    return;
  }
  const { redis, total, intervalMs, signal, onProgress } = options ?? {};
  if (one)
    issues.need(
      isRedisClient(redis),
      ['redis'],
      `${REDIS_CLIENT}, the one the batch was recorded with`,
      redis,
    );
  if (!one && total !== undefined) {
    issues.need(
      whole(total, 0, Number.MAX_SAFE_INTEGER),
      ['total'],
      'a whole number from 0',
      total,
    );
  }
  if (intervalMs !== undefined) {
    const wanted = `a positive number of milliseconds up to ${MAX_TIMER_MS}`;
    issues.need(isTimerDelay(intervalMs), ['intervalMs'], wanted, intervalMs);
  }
  if (signal !== undefined) {
    const isSignal = typeof AbortSignal !== 'undefined' && signal instanceof AbortSignal;
    issues.need(isSignal, ['signal'], 'an AbortSignal', signal);
  }
  if (onProgress !== undefined) {
    issues.need(typeof onProgress === 'function', ['onProgress'], 'a function', onProgress);
  }
  issues.check();
}
