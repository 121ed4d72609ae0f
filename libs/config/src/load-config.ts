import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { AppConfig } from './app-config.js';
import { ConfigError } from './config.error.js';
import { EnvironmentVariables, type LogLevel } from './environment.js';

interface LoadConfigOptions {
  /** The standalone process loads the demo catalogue unless told not to. */
  demoDataByDefault?: boolean;
  /** The standalone process, a newcomer's terminal, logs only warnings unless told otherwise. */
  logLevelByDefault?: LogLevel;
  /** Variables that win over the environment's (the OpenAPI writer's throwaway database). */
  overrides?: Record<string, string>;
}

/**
 * What the variables ask together that cannot be: read replicas of an SQLite file, one Redis and
 * a cluster at once, or queues whose keys a cluster would spread over slots (BullMQ's scripts
 * then fail with CROSSSLOT). `given` holds the variables set, without the defaults.
 */
function conflicts(given: Record<string, string>, vars: EnvironmentVariables): string[] {
  const found: string[] = [];
  if (vars.DATABASE_READ_URLS !== undefined && vars.DATABASE_URL.startsWith('sqlite:')) {
    found.push('DATABASE_READ_URLS: read replicas need a postgres:// DATABASE_URL');
  }
  if (vars.REDIS_CLUSTER_NODES === undefined) return found;
  if (given.REDIS_URL !== undefined) {
    found.push('REDIS_URL, REDIS_CLUSTER_NODES: set one of them, not both');
  } else if (!/\{[^}]+\}/.test(vars.QUEUE_PREFIX)) {
    found.push('QUEUE_PREFIX: must hold a hash tag such as {pricing} on a Redis Cluster');
  }
  return found;
}

/** The variables that are set; an empty one counts as unset, as in most shells' `VAR= command`. */
function setOnly(variables: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(variables).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '',
    ),
  );
}

/** Validates the environment and builds the configuration, or throws naming each bad variable. */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  options: LoadConfigOptions = {},
): AppConfig {
  const given = setOnly({ ...env, ...options.overrides });
  const callerDefaults = setOnly({
    DEMO_DATA: options.demoDataByDefault?.toString(),
    LOG_LEVEL: options.logLevelByDefault,
  });
  const vars = plainToInstance(EnvironmentVariables, { ...callerDefaults, ...given });
  const lines = [
    ...validateSync(vars, { skipMissingProperties: false }).map(
      (error) => `${error.property}: ${Object.values(error.constraints ?? {}).join('; ')}`,
    ),
    ...conflicts(given, vars),
  ];
  if (lines.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return new AppConfig(vars);
}
