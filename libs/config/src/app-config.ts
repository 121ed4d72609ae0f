export type DatabaseConfig =
  { type: 'sqlite'; path: string } | { type: 'postgres'; url: string; schema: string };

export interface PlanDefinition {
  name: string;
  requestsPerHour: number;
  creditsPerMonth: number;
  features: string[];
}

/** The one validated configuration object every service receives by injection. */
export class AppConfig {
  constructor(
    readonly http: { host: string; port: number },
    readonly database: DatabaseConfig,
    readonly redis: { url: string; queuePrefix: string },
    readonly adminToken: string | null,
    /** Cheapest first. */
    readonly plans: PlanDefinition[],
    readonly demoData: boolean,
    readonly ingest: {
      scrapers: string[];
      concurrency: number;
      attempts: number;
      backoffMs: number;
      lockMs: number;
      retentionSeconds: number;
    },
    readonly projections: { pollMs: number; batchSize: number },
    readonly shutdownGraceMs: number,
    readonly logLevel: 'fatal' | 'error' | 'warn' | 'log' | 'debug' | 'verbose',
    /** Where a 403 for a missing plan feature sends the customer. */
    readonly upgradeUrl: string,
  ) {}
}

type LogLevel = AppConfig['logLevel'];
const SEVERITY: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/** Nest takes the list of levels to print: the configured one and every more severe one. */
export function enabledLogLevels(level: LogLevel): LogLevel[] {
  return SEVERITY.slice(0, SEVERITY.indexOf(level) + 1);
}
