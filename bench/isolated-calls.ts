/**
 * The parent's side of `calls-worker.ts` and `telemetry-worker.ts`: one worker process per
 * variant, each timing a block when asked. The parent asks one worker at a time, so the others
 * idle while it is timed and a busy machine slows every variant of a round alike.
 */

import { fork, type Serializable } from 'node:child_process';
import { fileURLToPath } from 'node:url';

type BlockAnswer = import('./calls-worker').BlockAnswer;
type BlockRequest = import('./calls-worker').BlockRequest;

/** A variant's worker: times blocks of calls in its own process. */
export interface VariantWorker<R extends Serializable = BlockRequest> {
  /** Milliseconds per call of the block (wall, and CPU of the worker's own process). */
  time(request: R): Promise<{ wall: number; cpu: number }>;
  stop(): void;
}

/** The worker of the calls table (the default of `startVariantWorkers`). */
const CALLS_WORKER = new URL('./calls-worker.ts', import.meta.url);

/**
 * Forks `worker` for `variant` against the server at `base` and waits until it is ready. Every
 * worker speaks as `calls-worker.ts` does: `{ ready: true }` first, then an answer to each block.
 */
async function startWorker<R extends Serializable>(
  worker: URL,
  base: string,
  variant: string,
): Promise<VariantWorker<R>> {
  const child = fork(fileURLToPath(worker), [base, variant], {
    // Each block starts from a collected heap, as in a single process.
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<BlockAnswer>((resolve, reject) => {
      const onExit = (code: number | null) =>
        reject(new Error(`worker "${variant}" exited (${code})`));
      child.once('exit', onExit);
      child.once('message', (answer) => {
        child.off('exit', onExit);
        resolve(answer as BlockAnswer);
      });
    });
  await next();
  return {
    async time(request) {
      const answer = next();
      child.send(request);
      const result = await answer;
      if ('error' in result) throw new Error(`worker "${variant}": ${result.error}`);
      if (!('wall' in result)) throw new Error(`worker "${variant}": unexpected answer`);
      return result;
    },
    stop: () => child.kill(),
  };
}

/** One started `worker` (the calls table's by default) per variant; `stop` ends them all. */
export async function startVariantWorkers<K extends string, R extends Serializable = BlockRequest>(
  base: string,
  variants: readonly K[],
  worker: URL = CALLS_WORKER,
): Promise<{ workers: Record<K, VariantWorker<R>>; stop: () => void }> {
  const workers = {} as Record<K, VariantWorker<R>>;
  const stop = () => {
    for (const started of Object.values<VariantWorker<R>>(workers)) started.stop();
  };
  try {
    for (const variant of variants) workers[variant] = await startWorker<R>(worker, base, variant);
  } catch (error) {
    stop();
    throw error;
  }
  return { workers, stop };
}

/**
 * The worker's side: answers each block the parent asks for with its `{ wall, cpu }`, timed by
 * `time`, or `{ error }`; says `{ ready: true }` first and ends with the parent's channel.
 */
export function answerBlocks<R>(
  time: (request: R) => Promise<{ wall: number; cpu: number }>,
): void {
  const send = (answer: BlockAnswer) => process.send?.(answer);
  process.on('message', (request: R) => {
    time(request).then(send, (error: unknown) =>
      send({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
  // The parent's end of the channel closing is this worker's end.
  process.on('disconnect', () => process.exit(0));
  send({ ready: true });
}
