/**
 * `partner-sdk login`: asks for the credentials (the secret without echo), checks them with one
 * call, and saves them as a named profile in a file only the user can read.
 *
 * @module
 */

import { Command } from 'commander';
import { PartnerClient, PartnerError } from 'partner-sdk';
import { type Context, UsageError } from '../context';
import { DEFAULT_PROFILE, type Profile, profileName, saveProfile } from '../profiles';
import { type Action, examples } from './action';

interface LoginFlags {
  baseUrl?: string;
  clientId?: string;
  verify?: boolean;
}

/** Reads one line from a stream (the secret from a pipe), without keeping the rest. */
async function firstLine(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    text += chunk.toString();
    if (text.includes('\n') || text.length > 4096) break;
  }
  return text.split(/\r?\n/)[0]!.trim();
}

/**
 * Asks a question on the terminal. With `hidden`, the terminal is in raw mode, so the typed
 * characters are not echoed: the secret never appears on the screen or in a recording of it.
 */
function ask(context: Context, question: string, hidden = false): Promise<string> {
  const { stdin, stderr } = context.io;
  stderr.write(question);
  stdin.setRawMode?.(hidden);
  return new Promise((resolve) => {
    let answer = '';
    const done = () => {
      stdin.off('data', onData);
      stdin.setRawMode?.(false);
      stdin.pause();
    };
    const onData = (chunk: Buffer | string) => {
      for (const char of chunk.toString()) {
        if (char === '\u0003') {
          // In raw mode the terminal sends Ctrl-C as a character, not as SIGINT: hand it to the
          // signal's listeners, so that the secret prompt ends as every command does (exit 130).
          done();
          stderr.write('\n');
          process.emit('SIGINT', 'SIGINT');
          return;
        }
        if (char === '\r' || char === '\n') {
          done();
          if (hidden) stderr.write('\n');
          resolve(answer.trim());
          return;
        }
        answer = char === '\u007f' || char === '\b' ? answer.slice(0, -1) : answer + char;
      }
    };
    stdin.on('data', onData);
    stdin.resume();
  });
}

/** One setting and where it came from: its flag, else its variable, else asked on a terminal. */
async function setting(
  context: Context,
  [flag, flagName]: [string | undefined, string],
  variable: string,
  question: string,
): Promise<{ value: string; from: string }> {
  if (flag !== undefined) return { value: flag, from: flagName };
  const fromEnv = context.io.env[variable];
  if (fromEnv !== undefined) return { value: fromEnv, from: variable };
  const tty = context.io.stdin.isTTY === true;
  return { value: tty ? await ask(context, `${question}: `) : '', from: 'typed at the prompt' };
}

/** Where a setting came from, as a hint says it: given with a flag or variable, or typed. */
const given = (from: string) => (from.startsWith('typed') ? from : `given with ${from}`);

/**
 * The settings to save: flags first, then variables, then questions on a terminal; the secret
 * from stdin if piped. Where each came from is kept for the hints of a refused login.
 */
async function gather(context: Context, flags: LoginFlags) {
  const tty = context.io.stdin.isTTY === true;
  const url = await setting(
    context,
    [flags.baseUrl, '--base-url'],
    'PARTNER_API_BASE_URL',
    'Base URL',
  );
  const id = await setting(
    context,
    [flags.clientId, '--client-id'],
    'PARTNER_API_CLIENT_ID',
    'Client id',
  );
  const clientSecret = tty
    ? await ask(context, 'Client secret (not shown): ', true)
    : await firstLine(context.io.stdin);
  if (!url.value) throw new UsageError('login needs --base-url URL (or PARTNER_API_BASE_URL)');
  if (!id.value) throw new UsageError('login needs --client-id ID (or PARTNER_API_CLIENT_ID)');
  if (!clientSecret) {
    throw new UsageError('login needs the client secret: type it when asked, or pipe it on stdin');
  }
  const secretFrom = tty ? 'typed at the prompt' : "read from stdin's first line";
  context.loginSources = {
    url: url.value,
    baseUrl: url.from,
    credentials: `the client id ${given(id.from)} and the client secret ${secretFrom}`,
  };
  const { sellerTokenFlag: sellerToken } = context;
  return { baseUrl: url.value, clientId: id.value, clientSecret, sellerToken };
}

/**
 * The client the profile makes, made even with `--no-verify` (it sends nothing): a base URL it
 * refuses would fail every later command, so it is a usage error now, naming the flags. Logged and
 * bounded as every command's client is (`--verbose`, `PARTNER_API_LOG`, `--request-timeout`): a
 * refused login is when an operator most needs to see the call.
 */
function clientFor(context: Context, profile: Profile): PartnerClient {
  try {
    // The seller's token is the profile's, not the client's: a client refuses an option it lacks.
    const { sellerToken: _, ...credentials } = profile;
    return new PartnerClient({ ...credentials, ...context.clientOptions(), maxRetries: 0 });
  } catch (error) {
    if (error instanceof PartnerError) {
      throw new UsageError(`${error.message} (from --base-url, --client-id or PARTNER_API_*)`);
    }
    throw error;
  }
}

async function loginAction(context: Context, flags: LoginFlags) {
  const name = profileName(context.profileName ?? DEFAULT_PROFILE);
  const profile = await gather(context, flags);
  const client = clientFor(context, profile);
  // One call that needs the client token: the login at POST /auth happens first.
  if (flags.verify !== false) await client.products.list({ per_page: 1 });
  const path = await saveProfile(context.io.env, name, profile);
  const checked = flags.verify === false ? 'not checked (--no-verify)' : 'logged in';
  context.print(
    { profile: name, file: path, baseUrl: profile.baseUrl, clientId: profile.clientId, checked },
    () =>
      `${checked}: saved profile "${name}" (client ${profile.clientId} at ${profile.baseUrl}) in ${path}, readable only by you`,
  );
}

export function loginCommand(run: Action): Command {
  return new Command('login')
    .description(
      `check credentials and save them as a profile (--profile NAME, default "${DEFAULT_PROFILE}") in a file only you can read`,
    )
    .option('--base-url <url>', 'the API base URL (default: PARTNER_API_BASE_URL, else asked)')
    .option('--client-id <id>', 'the client id (default: PARTNER_API_CLIENT_ID, else asked)')
    .option('--no-verify', 'save without logging in first')
    .addHelpText(
      'after',
      `
The client secret is asked for without echo on a terminal, or read from stdin's first line when
piped; it is never a flag (flags land in shell history) and never printed. Profiles are saved in
$XDG_CONFIG_HOME/partner-sdk/profiles.json (default ~/.config/partner-sdk/profiles.json), mode 0600.
A seller token given to login (--seller-token-file or --seller-token) is saved too. Use a profile with --profile NAME or
PARTNER_SDK_PROFILE; without either, PARTNER_API_* variables win over the "${DEFAULT_PROFILE}" profile.
A profile's credentials go only to its own base URL, never to another PARTNER_API_BASE_URL names.
${examples([
  'partner-sdk login --base-url https://api.example.com --client-id cli_42',
  'pass show partner/secret | partner-sdk login --profile staging --base-url https://staging.example.com --client-id cli_42',
  'partner-sdk --profile staging products list',
])}`,
    )
    .action(run(loginAction));
}
