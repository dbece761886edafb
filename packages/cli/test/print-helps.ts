/**
 * Prints the `--help` of each command named in argv (JSON: an array of command paths) as one JSON
 * object `{ "refunds request": "Usage: …" }`: the CLI's own `main`, one process for them all.
 * `node --import ./packages/cli/test/register.ts packages/cli/test/print-helps.ts '[["refunds"]]'`
 */

import { Writable } from 'node:stream';
import type { main as Main } from '../src/program';

// By URL: the loader maps extensionless imports inside src/ only.
const { main } = (await import(new URL('../src/program.ts', import.meta.url).href)) as {
  main: typeof Main;
};

const commands = JSON.parse(process.argv[2] ?? '[]') as string[][];
const helps: Record<string, string> = {};
for (const command of commands) {
  let text = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  const code = await main([...command, '--help'], {
    stdout: sink,
    stderr: sink,
    stdin: process.stdin,
    env: process.env,
  });
  helps[command.join(' ')] = code === 0 ? text : `exit ${code}: ${text}`;
}
process.stdout.write(`${JSON.stringify(helps)}\n`);
