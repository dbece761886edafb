/**
 * Stands in for the types of `pino` (not installed here) where an SDK example passes a pino
 * logger: the part of its published API the example uses, a logger whose level methods take a
 * message and details, or an object and a message.
 */
declare module 'pino' {
  interface LogFn {
    (message: string, ...details: unknown[]): void;
    (object: object, message?: string, ...details: unknown[]): void;
  }
  interface Logger {
    fatal: LogFn;
    error: LogFn;
    warn: LogFn;
    info: LogFn;
    debug: LogFn;
    trace: LogFn;
  }
  export default function pino(options?: { level?: string }): Logger;
}
