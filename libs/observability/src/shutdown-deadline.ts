import type { Logger as PinoInstance } from 'pino';

/** Beyond the grace time, what closing connections and flushing logs may still take. */
const CLOSING_MARGIN_MS = 5_000;

/**
 * On SIGTERM or SIGINT, the application closes itself (Nest's shutdown hooks: the HTTP server
 * stops accepting and lets requests in flight finish, the worker lets its jobs finish for the
 * grace time). This is the backstop: should closing still hang past the grace time and a
 * margin, the process exits with 1 instead of waiting for SIGKILL.
 */
export function installShutdownDeadline(graceMs: number, logger: PinoInstance): void {
  const arm = (signal: string) => {
    setTimeout(() => {
      logger.error({ signal, grace_ms: graceMs }, 'shutdown did not finish in time; exiting');
      process.exit(1);
    }, graceMs + CLOSING_MARGIN_MS).unref();
  };
  process.once('SIGTERM', () => arm('SIGTERM'));
  process.once('SIGINT', () => arm('SIGINT'));
}
