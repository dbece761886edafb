/**
 * The per-call cost in instructions, counted by valgrind's callgrind: a reading that load on a
 * shared machine does not move, beside the timed rows whose round-to-round spread is as wide as
 * the margins they are judged by. Each variant of a call runs in a fresh process under callgrind
 * twice, with the same warm-up and then either no more calls or a long block of them; the
 * difference between the two counts, over that block's calls, is one call's steady-state cost
 * (start-up, imports and the JIT's warm-up cancel out). Garbage collection and compilation are in
 * the count, on V8's predictable schedule (`--predictable-gc-schedule`: a fixed heap growth, no
 * idle-time or memory-reducing collections) and on the main thread (`--single-threaded`): when
 * the collector's marking and the optimising compiler ran on threads of their own, which work
 * landed inside a block depended on how those threads were scheduled, and two counts of the same
 * build at 32 calls at once differed by more than the margins they are judged by; with every
 * piece of V8's work at a point the program itself decides, repeated counts agree.
 *
 * Skipped (and said so) where valgrind is not installed, and in a quick run.
 */

import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./instructions-child.ts', import.meta.url));

/**
 * The cells counted: both payload sizes, one call at a time and 32 at once, over loopback and
 * answered from memory. Before the counted calls, warm-up ones (the same in both runs of a pair, so
 * they cancel out, the JIT's work with them); then the short run makes none and the long one
 * `calls` (a large page costs more apiece).
 *
 * Over loopback, how many answers one turn of the event loop finds ready depends on timing, so a
 * count of 32 calls at once moves by several per cent from run to run, load or not. Answered from
 * memory (`instructions-child.ts`), the network and its timing are out (the JIT's background
 * compiles still move a count by a few per cent): the count is the libraries' own work on the same
 * response, the budget's "ky's own cost", with nothing to dilute the ratio. Those rows are judged;
 * the loopback rows show the same calls where the network's cost is shared.
 */
const RETRIEVE = {
  name: 'products.retrieve (~1.5 KB)',
  case: 'retrieve',
  warmUp: 800,
  calls: 2_000,
};
const LIST = { name: 'products.list (50, ~75 KB)', case: 'list', warmUp: 200, calls: 400 };
const CELLS: ReadonlyArray<Cell> = (['memory', 'loopback'] as const).flatMap((transport) =>
  [RETRIEVE, LIST].flatMap((call) =>
    [1, 32].map((concurrency) => ({ ...call, concurrency, transport })),
  ),
);

interface Cell {
  name: string;
  case: string;
  concurrency: number;
  warmUp: number;
  calls: number;
  /** `memory`: every variant's `fetch` answers from memory; `loopback`: the service answers. */
  transport: 'memory' | 'loopback';
}

const VARIANTS = ['ky', 'off', 'on'] as const;
type Variant = (typeof VARIANTS)[number];

export interface InstructionRow {
  name: string;
  concurrency: number;
  transport: Cell['transport'];
  /** Instructions per call, by variant. */
  perCall: Record<Variant, number>;
}

export type InstructionResult = { rows: InstructionRow[] } | { skipped: string };

/** Whether callgrind can run here. */
function valgrindMissing(): string | undefined {
  const found = spawnSync('valgrind', ['--version'], { encoding: 'utf8' });
  return found.status === 0 ? undefined : 'valgrind is not installed on this machine';
}

/** The instructions callgrind counted in one run of the child (all its threads). */
function count(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'valgrind',
      [
        '--tool=callgrind',
        '--callgrind-out-file=/dev/null',
        process.execPath,
        '--predictable-gc-schedule',
        '--single-threaded',
        CHILD,
        ...args,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      const collected = /Collected : (\d+)/.exec(stderr);
      if (code === 0 && collected) resolve(Number(collected[1]));
      else
        reject(
          new Error(`callgrind run ${args.join(' ')} failed (${code}): ${stderr.slice(-500)}`),
        );
    });
  });
}

/** Instructions per call of each variant of each cell; the two runs of a pair side by side. */
export function benchInstructions(quick: boolean): Promise<InstructionResult> {
  return countedRows(quick, countCells);
}

/**
 * `rows()` where callgrind can count them: skipped (and said why) in a quick run, where valgrind is
 * missing, or when a count fails (the timed sections of a full run are kept even then).
 */
export async function countedRows<R>(
  quick: boolean,
  rows: () => Promise<R[]>,
): Promise<{ rows: R[] } | { skipped: string }> {
  if (quick) return { skipped: 'a quick run does not count instructions (minutes under valgrind)' };
  const missing = valgrindMissing();
  if (missing) return { skipped: missing };
  try {
    return { rows: await rows() };
  } catch (error) {
    return { skipped: `a callgrind run failed: ${(error as Error).message}` };
  }
}

/**
 * One call's steady-state instructions: the child run with `calls` counted calls (`args(calls)`)
 * minus the same run with none, over `calls`.
 */
export async function instructionsPerCall(
  args: (calls: number) => string[],
  calls: number,
): Promise<number> {
  const [none, many] = await Promise.all([count(args(0)), count(args(calls))]);
  return (many - none) / calls;
}

async function countCells(): Promise<InstructionRow[]> {
  const rows: InstructionRow[] = [];
  for (const cell of CELLS) {
    const perCall = {} as Record<Variant, number>;
    for (const variant of VARIANTS) {
      perCall[variant] = await instructionsPerCall(
        (calls) => [
          cell.case,
          variant,
          String(cell.concurrency),
          String(cell.warmUp),
          String(calls),
          cell.transport,
        ],
        cell.calls,
      );
      process.stderr.write('.');
    }
    rows.push({
      name: cell.name,
      concurrency: cell.concurrency,
      transport: cell.transport,
      perCall,
    });
  }
  return rows;
}

/** How many calls each cell's long run counts, as the report says it: "2,000 (retrieve), …". */
function countedCalls(): string {
  const byCase = new Map(CELLS.map((cell) => [cell.case, cell.calls]));
  return [...byCase]
    .map(([name, calls]) => `${calls.toLocaleString('en-US')} (${name})`)
    .join(', ');
}

/** The section of RESULTS.md. */
export function instructionsReport(
  result: InstructionResult,
  verdict: (ok: boolean) => string,
): string[] {
  const lines = [
    '## Calls in instructions',
    '',
    'The same calls counted by valgrind callgrind instead of timed: instructions per call in steady ' +
      'state (each variant in its own process, twice, after the same warm-up calls: once with no ' +
      `more, once with ${countedCalls()}; the difference over those calls), so these rows judge ` +
      "the SDK's own work where the timed rows above cannot tell a few per cent from the spread. " +
      'Garbage collection and compilation are counted, on the main thread (`--single-threaded`) ' +
      "and on V8's predictable collection schedule (`--predictable-gc-schedule`): V8 then does " +
      'every piece of its work at a point the program decides, so a count repeats whatever else ' +
      'the machine runs; with marking and optimising compiles on threads of their own, which of ' +
      'them landed inside a block depended on scheduling, and a count at 32 calls at once moved ' +
      'by more than the margins it is judged by.',
    '',
    '"memory": every variant\'s `fetch` answers from memory with the response the service sent ' +
      "once, so the count is each library's own work on the same response (the budget's \"ky's own " +
      'cost"), with the network left out and the timing that comes with it: these rows are judged. ' +
      '"loopback": the service answers over a socket; there, how many answers one turn of the event ' +
      'loop finds ready depends on timing, and at 32 calls at once the count moves by several per ' +
      "cent from run to run, so these rows show the network's share and are not judged.",
    '',
  ];
  if ('skipped' in result) return [...lines, `Not counted: ${result.skipped}.`, ''];
  lines.push(
    '| call | answered | c | ky, instructions/call | SDK off ÷ ky | SDK on ÷ ky | ≤ 1.1 × ky |',
    '|---|---|---:|---:|---:|---:|---|',
  );
  for (const { name, transport, concurrency, perCall } of result.rows) {
    const on = perCall.on / perCall.ky;
    const judged = transport === 'memory' ? verdict(on <= 1.1) : '—';
    lines.push(
      `| ${name} | ${transport} | ${concurrency} | ${Math.round(perCall.ky).toLocaleString('en-US')} | ` +
        `${(perCall.off / perCall.ky).toFixed(3)} | ${on.toFixed(3)} | ${judged} |`,
    );
  }
  return [...lines, ''];
}
