/**
 * The parent's side of `calls-worker.ts`: one worker process per variant, each timing a block
 * when asked. The parent asks one worker at a time, so the others idle while it is timed and a
 * busy machine slows every variant of a round alike.
 */

import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

type BlockAnswer = import('./calls-worker').BlockAnswer;
type BlockRequest = import('./calls-worker').BlockRequest;

/** A variant's worker: times blocks of calls in its own process. */
export interface VariantWorker {
  /** Milliseconds per call of the block (wall, and CPU of the worker's own process). */
  time(request: BlockRequest): Promise<{ wall: number; cpu: number }>;
  stop(): void;
}

const WORKER = fileURLToPath(new URL('./calls-worker.ts', import.meta.url));

/** Forks the worker of `variant` against the server at `base` and waits until it is ready. */
async function startWorker(base: string, variant: string): Promise<VariantWorker> {
  const child = fork(WORKER, [base, variant], {
    // Each block starts from a collected heap, as in a single process.
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<BlockAnswer>((resolve, reject) => {
      const onExit = (code: number | null) =>
        reject(new Error(`calls worker "${variant}" exited (${code})`));
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
      if ('error' in result) throw new Error(`calls worker "${variant}": ${result.error}`);
      if (!('wall' in result)) throw new Error(`calls worker "${variant}": unexpected answer`);
      return result;
    },
    stop: () => child.kill(),
  };
}

/** One started worker per variant; `stop` ends them all. */
export async function startVariantWorkers<K extends string>(
  base: string,
  variants: readonly K[],
): Promise<{ workers: Record<K, VariantWorker>; stop: () => void }> {
  const workers = {} as Record<K, VariantWorker>;
  const stop = () => {
    for (const worker of Object.values<VariantWorker>(workers)) worker.stop();
  };
  try {
    for (const variant of variants) workers[variant] = await startWorker(base, variant);
  } catch (error) {
    stop();
    throw error;
  }
  return { workers, stop };
}
