import type { AppConfig } from '#app/config';
import { LoggerModule } from 'nestjs-pino';
import { pino, type Logger as PinoInstance } from 'pino';

const PINO_LEVELS: Record<AppConfig['logLevel'], string> = {
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

/**
 * Headers that carry secrets. The service logs chosen fields, never headers, so these matter
 * only if a header ever reaches a log line by accident.
 */
const REDACTED = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers.cookie',
];

/** One JSON line per entry on stdout, at the configured level. */
export function createLogger(
  config: AppConfig,
  service: 'api' | 'worker' | 'api+worker',
): PinoInstance {
  return pino({
    level: PINO_LEVELS[config.logLevel],
    base: { service, pid: process.pid },
    redact: { paths: REDACTED, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}

/**
 * Nest's own logging (every `new Logger(...)` in the code) through that pino logger. Requests
 * are logged by `observeHttp` with chosen fields, and the lines that concern one request name
 * its id themselves, so pino-http's per-request middleware is mounted on no route: it would cost
 * every request a child logger and an AsyncLocalStorage context (whose promise hooks slow down
 * every await) for nothing.
 */
export function loggingModule(logger: PinoInstance) {
  return LoggerModule.forRoot({ pinoHttp: { logger }, forRoutes: [] });
}
