/**
 * The progress line of a bulk job, redrawn in place on a terminal's stderr: a bar with the
 * percentage and the time left when the number of items is known, a counter when it is not
 * (stdin, which may be endless).
 *
 * @module
 */

import type { BulkProgress } from 'partner-sdk/bulk';

/** What the bar shows of a job's (or a queued batch's) progress. */
type Shown = Pick<BulkProgress, 'done' | 'failed' | 'ratePerSecond' | 'etaMs'> & {
  total: number | undefined;
};

import { cutColumns } from './cut-text';
import { plural } from './output';

const WIDTH = 20;

/** A duration for people: `45 s`, `3 min 20 s`, `2 h 5 min`. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  const m = Math.round(s / 60);
  return `${Math.floor(m / 60)} h${m % 60 ? ` ${m % 60} min` : ''}`;
}

/** Milliseconds left: the job's own estimate, else the items left at the current rate. */
function timeLeft(p: Shown, total: number): number | undefined {
  if (p.etaMs !== undefined) return p.etaMs;
  if (p.ratePerSecond > 0) return ((total - p.done) / p.ratePerSecond) * 1000;
  return undefined;
}

/** The progress line's text. */
export function progressText(p: Shown, total: number | undefined): string {
  const tail = `${p.failed} failed · ${p.ratePerSecond.toFixed(0)}/s`;
  if (total === undefined || total === 0) return `${plural(p.done, 'item')} done · ${tail}`;
  const ratio = Math.min(1, p.done / total);
  const filled = Math.round(ratio * WIDTH);
  const left = timeLeft(p, total);
  const eta = left === undefined ? 'time left: estimating' : `${duration(left)} left`;
  // Most telling first: a narrow terminal cuts the end of the line.
  return `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${Math.floor(ratio * 100)}% ${p.done}/${total} · ${eta} · ${tail}`;
}

/** A one-line progress display, redrawn in place on a terminal's stderr. */
export class ProgressBar {
  readonly #stream: NodeJS.WritableStream & { columns?: number };
  readonly #total: number | undefined;
  #drawn = false;
  #closed = false;

  constructor(stream: NodeJS.WritableStream & { columns?: number }, total: number | undefined) {
    this.#stream = stream;
    this.#total = total;
  }

  /** Redraws the line. */
  update(p: Shown): void {
    if (this.#closed) return;
    const text = progressText(p, this.#total ?? p.total);
    // A terminal that reports no width (0, as some pseudo-terminals do) is taken as 100 wide.
    const columns = this.#stream.columns || 100;
    // Cut to the terminal's columns: a line one column too wide wraps, and every redraw after it
    // leaves a line behind.
    this.#stream.write(`\r${cutColumns(text, columns - 1)}\x1b[K`);
    this.#drawn = true;
  }

  /** Clears the line before other output. */
  clear(): void {
    if (this.#drawn) this.#stream.write('\r\x1b[K');
    this.#drawn = false;
  }

  /**
   * Clears the line for good: the job may still report progress after the command is done with
   * it (a single item that failed ends the command while the job winds down), and a line drawn
   * then would stay under what follows on the terminal.
   */
  close(): void {
    this.clear();
    this.#closed = true;
  }
}

/**
 * A progress bar on stderr when a person watches it: stderr is a terminal, and one that moves the
 * cursor (`TERM=dumb`, as Emacs' shell and some CI logs declare, would show every redraw).
 */
export function progressBar(
  io: {
    stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
    env: Record<string, string | undefined>;
  },
  total: number | undefined,
): ProgressBar | undefined {
  if (!io.stderr.isTTY || io.env.TERM === 'dumb') return undefined;
  return new ProgressBar(io.stderr, total);
}
