/**
 * What an error body says, read the way Laravel writes it (the spec shows no error bodies; the
 * SDK assumes Laravel's `{ message, errors }`): its human message, and its messages per field.
 */

import { shortened } from '../../shared/cut-text';
import { isRecord } from '../../shared/is-record';
import { redactText } from '../logging/redact';
import { describeIssues, type ValidationIssue } from './partner-error';

/**
 * The human message of an error body: `message` (Laravel's) or `error` of a JSON body, the
 * `detail` or `title` of an RFC 9457 problem (what gateways and proxies in front of the service
 * answer), or the first line of a text one.
 */
export function bodyMessage(body: unknown): string | undefined {
  if (typeof body === 'string') {
    const text = body.trim();
    if (!text) return undefined;
    if (text.startsWith('<?xml')) return 'the answer is an XML document';
    if (text.startsWith('<')) return 'the service answered with an HTML page';
    return oneLine(text);
  }
  if (body && typeof body === 'object') {
    const message = ownField(body, 'message');
    if (typeof message === 'string' && message.trim()) return oneLine(message.trim());
    const error = ownField(body, 'error');
    if (typeof error === 'string' && error.trim()) return oneLine(error.trim());
    return problemMessage(body);
  }
  return undefined;
}

/**
 * What an RFC 9457 problem says: its `detail`, or its `title` when it has a type of its own (the
 * title of an untyped problem, `about:blank`, is the status phrase the message already has).
 */
function problemMessage(body: object): string | undefined {
  const detail = ownField(body, 'detail');
  if (typeof detail === 'string' && detail.trim()) return oneLine(detail.trim());
  const type = ownField(body, 'type');
  const title = ownField(body, 'title');
  const typed = typeof type === 'string' && type !== 'about:blank';
  return typed && typeof title === 'string' && title.trim() ? oneLine(title.trim()) : undefined;
}

/** Longest body message quoted in an error's message; the body itself stays whole on the error. */
const MAX_QUOTED = 300;

/**
 * The first line of what a body says, control characters blanked and cut at {@link MAX_QUOTED}
 * (`…` where the line was cut): an error's message stays one readable log line whatever the
 * service sent (a stack trace, a page of text, bytes).
 */
function oneLine(text: string): string {
  const [line = ''] = text.split('\n', 1);
  // Masked before the cut, which could leave the start of a secret where the mask no longer finds it.
  const blanked = redactText(line)
    .replace(/\p{Cc}+/gu, ' ')
    .trim();
  return shortened(blanked, MAX_QUOTED);
}

/** A body's own field, never one inherited through its prototype. */
function ownField(body: object, name: string): unknown {
  return Object.hasOwn(body, name) ? (body as Record<string, unknown>)[name] : undefined;
}

/** The messages per field of a Laravel-style `{ message, errors }` body. */
export function readFieldErrors(body: unknown): Record<string, string[]> {
  const errors = body && typeof body === 'object' ? ownField(body, 'errors') : undefined;
  if (!isRecord(errors)) return {};
  // `Object.fromEntries` defines each field, never assigns it: a field named `__proto__` stays a field.
  return Object.fromEntries(
    Object.entries(errors).flatMap(([field, messages]) =>
      Array.isArray(messages)
        ? [[field, messages.map(String)]]
        : typeof messages === 'string'
          ? [[field, [messages]]]
          : [],
    ),
  );
}

/**
 * Laravel 8 answers every 422 with the same `The given data was invalid.` and the real messages
 * under `errors`; later versions put the first one on top themselves (`… (and 2 more errors)`).
 * For the former, the first field's message and how many follow, so `err.message` says what is
 * wrong; `undefined` (the body's own message) otherwise.
 */
export function firstFieldError(body: unknown): string | undefined {
  if (bodyMessage(body) !== 'The given data was invalid.') return undefined;
  const fieldErrors = Object.entries(readFieldErrors(body)).filter(
    ([, messages]) => messages.length,
  );
  const [field, messages] = fieldErrors[0] ?? [];
  if (field === undefined || messages === undefined) return undefined;
  const more = fieldErrors.reduce((count, [, each]) => count + each.length, 0) - 1;
  return `${field}: ${messages[0]}${more > 0 ? ` (and ${more} more error${more === 1 ? '' : 's'})` : ''}`;
}

/**
 * What did not match, for the message: a body that is no resource at all (an empty body, `null`, an
 * HTML page from a wrong `baseUrl` or a captive portal, JSON cut short) is said as such, where
 * zod's issue at the root would only say `Invalid input`.
 */
export function describeMismatch(body: unknown, issues: ReadonlyArray<ValidationIssue>): string {
  if (!issues.every((issue) => issue.path.length === 0)) return describeIssues(issues);
  if (body === undefined) return 'the body is empty';
  if (body === null) return 'the body is null';
  if (typeof body !== 'string') return describeIssues(issues);
  const said = bodyMessage(body) ?? 'only white space';
  return body.trimStart().startsWith('<') ? said : `not JSON: ${said}`;
}
