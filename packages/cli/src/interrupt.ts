/**
 * Ctrl-C (SIGINT) and SIGTERM while a command runs. The innermost handler decides: a bulk job or a
 * followed batch stops gracefully and prints its summary, the mock closes its server. Without one,
 * and for a second signal once a handler has had its turn, the command ends at once with exit 130,
 * as the exit codes document for both signals (a shell would report SIGTERM as 143).
 *
 * @module
 */

import { EXIT } from './context';

const handlers: (() => void)[] = [];

function onSignal(): void {
  const handler = handlers.pop();
  if (handler) handler();
  else process.exit(EXIT.interrupted);
}

/** Listens for both signals while `work` runs (the command's whole action). */
export async function interruptible<T>(work: () => Promise<T>): Promise<T> {
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await work();
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/**
 * Makes `handler` answer the next signal (once; a second signal ends the command at once). The
 * function returned withdraws it when its work ends without a signal.
 */
export function onInterrupt(handler: () => void): () => void {
  handlers.push(handler);
  return () => {
    const index = handlers.lastIndexOf(handler);
    if (index !== -1) handlers.splice(index, 1);
  };
}
