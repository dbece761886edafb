/**
 * Webhooks for developers: `trigger <event> --to URL` sends a realistic delivery (the testing
 * kit's own event builders, spec §6) to a receiver, and `webhooks replay FILE --to URL` sends
 * saved deliveries again. Each prints the receiver's answer and how long it took.
 *
 * @module
 */

import { Command } from 'commander';
import {
  bankAccountDeletedEvent,
  bankAccountUpdatedEvent,
  subscriptionEndedEvent,
  webhookEvent,
} from 'partner-sdk/testing';
import { type Context, EXIT, ReceiverError, UsageError } from '../context';
import { cutText } from '../cut-text';
import { jsonArgument, readText } from '../input';
import { type Action, examples } from './action';

/** The events the kit builds with realistic payloads; other names get `--data` as payload. */
const BUILDERS: Record<string, (overrides: Record<string, unknown>) => unknown> = {
  subscription_ended: (o) => subscriptionEndedEvent(o as never),
  bank_account_updated: (o) => bankAccountUpdatedEvent(o as never),
  bank_account_deleted: (o) => bankAccountDeletedEvent(o as never),
};

/** What the receiver answered to one delivery. */
interface Answer {
  event: string;
  to: string;
  status: number;
  ms: number;
  body: string;
}

const MAX_SHOWN = 2000;

function headersOf(values: string[] = []): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const value of values) {
    const colon = value.indexOf(':');
    if (colon < 1) throw new UsageError('--header must be "Name: value"');
    headers[value.slice(0, colon).trim().toLowerCase()] = value.slice(colon + 1).trim();
  }
  return headers;
}

function targetOf(to: string): string {
  try {
    const url = new URL(to);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  } catch {}
  throw new UsageError('--to must be an http(s) URL');
}

/** A query parameter whose name says its value is a secret (`?token=…`, `?key=…`). */
const SECRET_NAME = /sig|credential|token|secret|key|password|auth/i;

/**
 * The receiver's URL as printed: a secret agreed with the platform often rides in its query (as
 * `secretVerifier({ query })` reads it), or in its userinfo; stdout lands in CI logs.
 */
function shownUrl(href: string): string {
  const url = new URL(href);
  if (url.username || url.password) [url.username, url.password] = ['REDACTED', 'REDACTED'];
  const query = [...url.searchParams].map(([name, value]) =>
    SECRET_NAME.test(name)
      ? `${encodeURIComponent(name)}=REDACTED`
      : `${encodeURIComponent(name)}=${encodeURIComponent(value)}`,
  );
  url.search = query.join('&');
  return url.href;
}

/**
 * The request's URL and headers: a user and password in the URL go as Basic credentials, as curl
 * sends them (fetch refuses such a URL, and its error quoted the password); an `Authorization`
 * given with `--header` wins.
 */
function requestOf(to: string, headers: Record<string, string>) {
  const url = new URL(to);
  if (!url.username && !url.password) return { url: url.href, headers };
  const user = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  [url.username, url.password] = ['', ''];
  const basic = `Basic ${Buffer.from(user).toString('base64')}`;
  return { url: url.href, headers: { authorization: basic, ...headers } };
}

/** How long a receiver may take to answer without `--request-timeout`. */
const RECEIVER_TIMEOUT_MS = 30_000;

/** A failure to reach the receiver, naming it as printed (its secrets redacted), never fetch's. */
function receiverError(to: string, ms: number, error: unknown): ReceiverError {
  const at = `the receiver at ${shownUrl(to)}`;
  if ((error as Error)?.name === 'TimeoutError') {
    return new ReceiverError(`${at} did not answer within ${ms / 1000} s`);
  }
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause;
  const why = typeof cause?.code === 'string' ? cause.code : String(cause?.message ?? error);
  return new ReceiverError(`cannot reach ${at}: ${why}`);
}

/** POSTs one delivery as the service does (JSON, no header of its own) and times the answer. */
async function send(
  to: string,
  body: string,
  given: Record<string, string>,
  ms = RECEIVER_TIMEOUT_MS,
): Promise<Omit<Answer, 'event'>> {
  const { url, headers } = requestOf(to, given);
  const started = performance.now();
  let status: number;
  let text: string;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body,
      // A redirect is the receiver's answer, shown as it is: followed, it would carry the secret
      // header and the body to wherever it points.
      redirect: 'manual',
      signal: AbortSignal.timeout(ms),
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    throw receiverError(to, ms, error);
  }
  return {
    to: shownUrl(to),
    status,
    ms: Math.round(performance.now() - started),
    body: cutText(text, MAX_SHOWN),
  };
}

function show(context: Context, answer: Answer): void {
  context.print(answer, (a) => {
    const body = a.body ? `\n${a.body}` : '';
    return `${a.event} → ${a.to}: ${a.status} in ${a.ms} ms${body}`;
  });
}

const ok = (status: number) => status >= 200 && status < 300;

interface SendFlags {
  to: string;
  data?: string;
  header?: string[];
}

async function triggerAction(context: Context, name: string, flags: SendFlags) {
  const to = targetOf(flags.to);
  const data =
    flags.data === undefined ? {} : await jsonArgument(flags.data, context.io.stdin, '--data');
  const build = BUILDERS[name];
  if (!build && !/^[a-z][a-z0-9_.]{0,99}$/.test(name)) {
    throw new UsageError(
      `trigger: "${name}" is not an event name (known: ${Object.keys(BUILDERS).join(', ')})`,
    );
  }
  const event = build ? build(data) : webhookEvent(name, data);
  const answer = await send(
    to,
    JSON.stringify(event),
    headersOf(flags.header),
    context.requestTimeoutMs,
  );
  show(context, { event: name, ...answer });
  return ok(answer.status) ? EXIT.ok : EXIT.failed;
}

/** Saved deliveries: a JSON array of bodies, one JSON body, or JSON lines (one body per line). */
function deliveriesOf(text: string, file: string): unknown[] {
  const trimmed = text.trim();
  try {
    const whole = JSON.parse(trimmed);
    return Array.isArray(whole) ? whole : [whole];
  } catch {}
  return trimmed
    .split('\n')
    .map((line, i) => ({ line: line.trim(), number: i + 1 }))
    .filter(({ line }) => line !== '')
    .map(({ line, number }) => {
      try {
        return JSON.parse(line);
      } catch {
        throw new UsageError(`${file}:${number}: not valid JSON (nothing was sent)`);
      }
    });
}

async function replayAction(context: Context, file: string, flags: SendFlags) {
  const to = targetOf(flags.to);
  const text = await readText(file, context.io.stdin);
  const headers = headersOf(flags.header);
  const timeout = context.requestTimeoutMs;
  const deliveries = deliveriesOf(text, file);
  // An empty file replays nothing: most likely the wrong file, so not a silent success.
  if (deliveries.length === 0)
    throw new UsageError(`${file} holds no deliveries (nothing was sent)`);
  let code: number = EXIT.ok;
  for (const delivery of deliveries) {
    const name = String((delivery as { event?: unknown })?.event ?? '(no event name)');
    const answer = await send(to, JSON.stringify(delivery), headers, timeout);
    show(context, { event: name, ...answer });
    if (!ok(answer.status)) code = EXIT.failed;
  }
  return code;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function triggerCommand(run: Action): Command {
  return new Command('trigger')
    .description(
      `send a realistic webhook delivery to a receiver and print its answer and timing (events: ${Object.keys(BUILDERS).join(', ')}, or any name with --data as payload)`,
    )
    .argument('<event>', 'the event name, e.g. subscription_ended')
    .requiredOption('--to <url>', "the receiver's URL")
    .option('--data <json>', 'payload fields to set, as JSON, @file or @-')
    .option('--header <header>', 'a header to send, "Name: value" (repeatable)', collect)
    .addHelpText(
      'after',
      examples([
        'partner-sdk trigger subscription_ended --to http://127.0.0.1:3000/webhooks',
        `partner-sdk trigger bank_account_updated --to http://127.0.0.1:3000/webhooks --data '{"status":"reproved"}'`,
        'partner-sdk trigger user_updated --to http://127.0.0.1:3000/webhooks --header "x-webhook-secret: s3cr3t"',
      ]),
    )
    .action(run(triggerAction));
}

export function webhooksCommand(run: Action): Command {
  const webhooks = new Command('webhooks').description('webhook deliveries (spec §6)');
  webhooks
    .command('replay <file>')
    .description(
      'send saved deliveries again (a JSON body, an array of them, or JSON lines; - for stdin), in order',
    )
    .requiredOption('--to <url>', "the receiver's URL")
    .option('--header <header>', 'a header to send, "Name: value" (repeatable)', collect)
    .addHelpText(
      'after',
      examples([
        'partner-sdk webhooks replay deliveries.jsonl --to http://127.0.0.1:3000/webhooks',
        'partner-sdk webhooks replay failed.json --to https://staging.example.com/webhooks --format json',
      ]),
    )
    .action(run(replayAction));
  return webhooks;
}
