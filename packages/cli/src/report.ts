/**
 * A command's failure in CLI terms (which flag, which variable, which URL) and its exit code.
 *
 * @module
 */

import { APIConnectionError, PartnerError, RequestValidationError } from 'partner-sdk';
import { AlreadyRefundedError, JournalLockedError } from 'partner-sdk/bulk';
import {
  type Context,
  EXIT,
  type Io,
  ReceiverError,
  StreamedInputError,
  UsageError,
} from './context';
import { FormatError, visible } from './format';
import { errorJson, errorText, inDoubtNote, isInDoubt } from './output';

/** The first string `code` along an error's chain of causes (`ECONNREFUSED`…). */
function codeOf(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/**
 * Causes that mean no connection was made (nothing listens, no such host, a certificate refused);
 * any other (`UND_ERR_SOCKET`, `ECONNRESET`) broke one that was, often mid-answer.
 */
const NOT_CONNECTED =
  /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EHOSTDOWN|ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|CERT_|ERR_TLS_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_)/;

/** The message for people: the SDK's, with the cause and the URL for a connection failure. */
function messageOf(context: Context | undefined, error: unknown): string {
  const code = codeOf(error);
  const connection =
    error instanceof APIConnectionError || (error instanceof TypeError && code !== undefined);
  const login = context?.loginSources;
  if (!connection || !code) return errorText(error, login?.credentials);
  const url = error instanceof APIConnectionError ? (login?.url ?? context?.baseUrl) : undefined;
  if (!NOT_CONNECTED.test(code)) {
    return `the connection${url ? ` to ${url}` : ''} was lost: ${code} (${errorText(error)})`;
  }
  const from = login?.baseUrl ?? "PARTNER_API_BASE_URL or the profile's base URL";
  const where = url ? ` to ${url} (${from})` : '';
  const hint = code === 'ECONNREFUSED' ? ': nothing listens there; is the service running?' : '';
  return `cannot connect${where}: ${code}${hint} (${errorText(error)})`;
}

function exitCodeOf(error: unknown): number {
  if (error instanceof StreamedInputError) return EXIT.streamedInput;
  if (error instanceof JournalLockedError) return EXIT.busy;
  if (error instanceof AlreadyRefundedError) return EXIT.alreadyRefunded;
  const usage =
    error instanceof UsageError ||
    error instanceof FormatError ||
    error instanceof RequestValidationError;
  return usage ? EXIT.usage : EXIT.failed;
}

/** Prints a command's failure on stderr (a JSON record in JSON format) and gives its exit code. */
export function report(io: Io, context: Context | undefined, error: unknown): number {
  const inDoubt = isInDoubt(error);
  const message = `${messageOf(context, error)}${inDoubt ? inDoubtNote(error) : ''}`;
  if (context?.json) {
    const record = { ...errorJson(error), message, ...(inDoubt ? { inDoubt } : {}) };
    io.stderr.write(`${JSON.stringify({ error: record })}\n`);
  } else {
    io.stderr.write(`partner-sdk: ${visible(message)}\n`);
  }
  const known =
    error instanceof PartnerError ||
    error instanceof UsageError ||
    error instanceof StreamedInputError ||
    error instanceof ReceiverError ||
    error instanceof FormatError ||
    codeOf(error) !== undefined;
  // An error the CLI did not expect: its stack helps a bug report (never in JSON output).
  if (!known && !context?.json) {
    io.stderr.write(`${visible((error as Error)?.stack ?? String(error))}\n`);
  }
  return exitCodeOf(error);
}
