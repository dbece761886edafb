/**
 * Ctrl-C (SIGINT), SIGTERM and SIGHUP while a command runs. The innermost handler decides: a bulk
 * job or a followed batch stops gracefully and prints its summary, the mock closes its server.
 * Without one, and for a second signal once a handler has had its turn, the command ends at once
 * with exit 130, as the exit codes document for all three (a shell would report SIGTERM as 143).
 * SIGHUP is how a closed terminal or a dropped SSH session ends a command: left to Node's default,
 * it would kill a job mid-item, its journal's last outcomes and its summary lost.
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

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Listens for the stop signals while `work` runs (the command's whole action). */
export async function interruptible<T>(work: () => Promise<T>): Promise<T> {
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  try {
    return await work();
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
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
