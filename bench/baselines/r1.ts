/**
 * R1, the floor of a counted read that needs the database: R0 plus one `SELECT` of a company by
 * primary key (a pg Pool of pg's default size, ten, as TypeORM's) before answering.
 *
 * Run as its own process (`startR1`) with R0's variables plus DATABASE_URL and DATABASE_SCHEMA,
 * on a schema whose `companies` read model is already built.
 */
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { BenchEnvironment } from '../support/environment.js';
import type { BenchContext } from '../support/scenario.js';
import { startService, type ServiceProcess } from '../support/service.js';
import { baselineEnv, baselineServer, serveBaseline, type BaselineOptions } from './r0.js';

/** Ids the SELECTs rotate through, so they do not all hit one cached page. */
const IDS = 10_000;

export function startR1(
  options: BaselineOptions & { databaseUrl: string; schema: string },
): Promise<ServiceProcess> {
  return startService(
    'r1',
    { ...baselineEnv(options), DATABASE_URL: options.databaseUrl, DATABASE_SCHEMA: options.schema },
    'R1',
  );
}

/** Starts R1 on a scenario's schema and Redis namespace, answering bodies of `bodyBytes`. */
export function r1Of(context: BenchContext, environment: BenchEnvironment) {
  return (bodyBytes: number) =>
    startR1({
      bodyBytes,
      redisUrl: context.redisUrl,
      keyNamespace: environment.env.QUEUE_PREFIX!.replace(/[{}]/g, ''),
      databaseUrl: context.databaseUrl,
      schema: environment.schema,
    });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL,
    options: `-c search_path=${process.env.DATABASE_SCHEMA}`,
  });
  const { rows } = await pool.query<{ id: number }>(
    `SELECT id FROM companies ORDER BY id LIMIT ${IDS}`,
  );
  if (rows.length === 0) throw new Error('R1: the companies table is empty');
  const ids = rows.map(({ id }) => id);
  let next = 0;
  const app = await baselineServer(() =>
    pool.query('SELECT * FROM companies WHERE id = $1', [ids[next++ % ids.length]]),
  );
  app.addHook('onClose', () => pool.end());
  await serveBaseline(app);
}
