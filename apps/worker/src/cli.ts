import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Module, type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  AccessModule,
  ApiKeysService,
  KeyRequestError,
  RequestMeter,
  type ApiKeyScope,
} from '#app/access';
import { AppConfig, ConfigModule, loadConfig } from '#app/config';
import { INGEST_QUEUE, IngestQueue, type RedisConnection } from '#app/contracts';
import { QueueInspector } from '#app/observability';
import {
  CheckpointStore,
  decodeCursor,
  encodeCursor,
  EventStore,
  ExchangeRateReader,
  PersistenceModule,
  PricingSnapshotReader,
  PROJECTOR_NAMES,
  ProjectionLagReader,
  START_OF_FEED,
  type ProjectorName,
} from '#app/persistence';
import { conversionTargetFor, EXPORT_FORMATS, type ExportFormat } from '#app/domain';
import { Command, InvalidArgumentError, Option } from 'commander';
import { BatchStatusService, IngestModule, IngestService } from '#app/ingest';
import {
  FileIngestion,
  InvalidBatchError,
  type FileOutcome,
  type InvalidLine,
  type QueuedBatch,
} from './cli/file-ingestion.js';
import { writePricingExport } from './cli/pricing-export-file.js';
import { ProgressDisplay } from './cli/progress-display.js';
import { describeStop, ProjectionRunner } from './projections/projection-runner.js';
import { ProjectionsModule } from './projections/projections.module.js';

@Module({})
class CliModule {}

/**
 * What a command needs. `database` connects nothing to Redis until a command uses it, so the
 * key commands work with Redis away; `queue` holds the ingest queue's producer, which connects
 * to Redis as it is built, and needs no database.
 */
const CONTEXTS: Record<'database' | 'queue', () => DynamicModule['imports']> = {
  database: () => [
    PersistenceModule.forRoot({ statementTimeout: false }),
    AccessModule,
    ProjectionsModule,
  ],
  queue: () => [IngestModule],
};

/** An application context (with the database migrated, for `database`), closed after the work. */
async function withContext<T>(
  work: (app: INestApplicationContext) => Promise<T>,
  context: keyof typeof CONTEXTS = 'database',
): Promise<T> {
  const app = await NestFactory.createApplicationContext(
    {
      module: CliModule,
      imports: [ConfigModule.forRoot(loadConfig()), ...(CONTEXTS[context]() ?? [])],
    },
    { logger: ['error', 'warn'] },
  );
  try {
    // The queue's connection retries for ever and BullMQ waits for it: fail fast instead.
    if (context === 'queue') await redisReachable(app.get(IngestQueue).redis);
    return await work(app);
  } finally {
    await app.close();
  }
}

async function redisReachable(redis: RedisConnection): Promise<void> {
  try {
    await redis.ping();
  } catch (error) {
    throw new Error(
      `Redis (REDIS_URL or REDIS_CLUSTER_NODES) is unreachable: ${(error as Error).message}`,
    );
  }
}

/** How often `ingest` asks for the status of its batches. */
const BATCH_POLL_MS = 250;

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) {
    throw new InvalidArgumentError('must be a whole number of 1 or more');
  }
  return parsed;
}

/** A currency to convert into: three letters, any case, upper-cased (as the API takes it). */
function currencyCode(value: string): string {
  if (!/^[A-Za-z]{3}$/.test(value)) {
    throw new InvalidArgumentError('must be a three-letter ISO 4217 code, such as EUR');
  }
  return value.toUpperCase();
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

function describeInvalid({ line, batch, index, type, reasons }: InvalidLine): string {
  return `line ${line} (batch ${batch}, index ${index}${type ? `, ${type}` : ''}): ${reasons.join('; ')}`;
}

function describeOutcome(file: string, batches: QueuedBatch[], outcome: FileOutcome): string[] {
  const jobs = batches.reduce((sum, batch) => sum + batch.jobs, 0);
  const { done, duplicate, failed, unknown } = outcome.counts;
  return [
    `${file}: ${plural(outcome.records, 'record')} in ${plural(batches.length, 'batch')}` +
      ` (${plural(jobs, 'job')})`,
    `done: ${done}, duplicate: ${duplicate}, failed: ${failed}, unknown: ${unknown}`,
    ...outcome.failures.map(
      ({ line, batch, type, reason }) =>
        `failed: line ${line} (batch ${batch}, ${type}): ${reason}`,
    ),
  ];
}

const program = new Command('pricing')
  .description('Operate the pricing-intelligence service (configuration from the environment)')
  .showHelpAfterError();

program
  .command('migrate')
  .description('apply pending database migrations')
  .action(() => withContext(async () => console.log('migrations applied')));

program
  .command('keys:create')
  .description('create an API key; the key is printed once and never again')
  .requiredOption('--name <name>', 'who or what the key is for')
  .requiredOption('--plan <plan>', 'a configured plan, e.g. free, pro, enterprise')
  .option('--scopes <scopes>', 'comma-separated: read, ingest', 'read')
  .option('--expires-at <iso>', 'ISO 8601 expiry time')
  .action((options: { name: string; plan: string; scopes: string; expiresAt?: string }) =>
    withContext(async (app) => {
      const created = await app.get(ApiKeysService).create({
        name: options.name,
        plan: options.plan,
        scopes: options.scopes.split(',').map((scope) => scope.trim()) as ApiKeyScope[],
        expiresAt: options.expiresAt ?? null,
      });
      console.log(JSON.stringify(created, null, 2));
    }),
  );

program
  .command('keys:list')
  .description('list API keys (never their secrets)')
  .action(() =>
    withContext(async (app) => {
      const keys = await app.get(ApiKeysService).list();
      console.table(
        keys.map(({ id, name, key_prefix, plan, scopes, status, expires_at, last_used_at }) => ({
          id,
          name,
          key_prefix,
          plan,
          scopes: scopes.join(','),
          status,
          expires_at,
          last_used_at,
        })),
      );
    }),
  );

program
  .command('keys:revoke')
  .description('revoke an API key by id')
  .argument('<id>')
  .action((id: string) =>
    withContext(async (app) => {
      const keys = app.get(ApiKeysService);
      if (!(await keys.find(id))) throw new Error(`no API key ${id}`);
      await keys.revoke(id);
      console.log(`revoked ${id}`);
    }),
  );

program
  .command('keys:usage')
  .description("show an API key's hourly window and credits (needs Redis; counts nothing)")
  .argument('<id>')
  .action((id: string) =>
    withContext(async (app) => {
      const key = await app.get(ApiKeysService).find(id);
      if (!key) throw new Error(`no API key ${id}`);
      const { hourly, credits } = await app.get(RequestMeter).read(id, key.plan);
      const time = (at: number | null) => (at === null ? '-' : new Date(at).toISOString());
      console.table({
        hourly: {
          used: hourly.used,
          limit: hourly.limit,
          since: time(hourly.windowStartedAt),
          resets: hourly.windowStartedAt === null ? '-' : time(hourly.resetAt),
        },
        credits: {
          used: credits.used,
          limit: credits.limit,
          since: '-',
          resets: time(credits.resetAt),
        },
      });
    }),
  );

program
  .command('rebuild')
  .description('empty every read model and replay the whole event log into it')
  .action(() =>
    withContext(async (app) => {
      const started = Date.now();
      const runner = app.get(ProjectionRunner);
      // The projectors move through the log together; the head is an estimate (PostgreSQL
      // sequences have gaps, and events may arrive meanwhile), and a bar's total becomes its
      // count once done.
      const head = await app.get(EventStore).headSeq();
      const display = new ProgressDisplay();
      const counters = new Map<string, ReturnType<ProgressDisplay['add']>>(
        runner.projectors.map((projector) => [
          projector.name,
          display.add(projector.name, head, 'events'),
        ]),
      );
      let applied: number;
      try {
        applied = await runner.rebuild((projector, count) =>
          counters.get(projector)?.increment(count),
        );
      } finally {
        display.stop();
      }
      console.log(`rebuilt: ${applied} events applied in ${Date.now() - started} ms`);
    }),
  );

program
  .command('projections')
  .description(
    "show each projector's backlog and, when it stopped at an event it cannot apply, that " +
      'event and the error (exits 1 if one stopped)',
  )
  .action(() =>
    withContext(async (app) => {
      const projectors = await app.get(ProjectionLagReader).read();
      console.table(
        Object.fromEntries(
          projectors.map(({ projector, events, seconds, failure }) => [
            projector,
            {
              behind: events,
              waited_s: Math.round(seconds),
              status: failure ? `stopped since ${failure.failedAt}` : 'moving',
              at: failure ? describeStop(failure) : '',
            },
          ]),
        ),
      );
      if (projectors.some(({ failure }) => failure)) process.exitCode = 1;
    }),
  );

program
  .command('projections:retry')
  .description(
    'after a fix, let stopped projectors (all when none is named) try their event again, ' +
      'and apply what they can now (exits 1 if one stops again)',
  )
  .argument('[projectors...]', `any of: ${PROJECTOR_NAMES.join(', ')}`)
  .action((names: string[]) =>
    withContext(async (app) => {
      const unknown = names.filter((name) => !PROJECTOR_NAMES.includes(name as ProjectorName));
      if (unknown.length > 0) {
        throw new Error(`no projector ${unknown.join(', ')} (${PROJECTOR_NAMES.join(', ')})`);
      }
      const runner = app.get(ProjectionRunner);
      const retried = await runner.retry(names.length > 0 ? names : undefined);
      if (retried.length === 0) {
        console.log('no projector had stopped');
        return;
      }
      const applied = await runner.catchUp(undefined, { wait: true });
      const stoppedAgain = (await app.get(CheckpointStore).states()).flatMap(({ name, failure }) =>
        failure && retried.includes(name)
          ? [`${name} stopped again at ${describeStop(failure)}`]
          : [],
      );
      if (stoppedAgain.length > 0) throw new Error(stoppedAgain.join('\n'));
      console.log(`retried ${retried.join(', ')}: ${plural(applied, 'event')} applied`);
    }),
  );

program
  .command('ingest')
  .description(
    'queue the records of an NDJSON file (one record per line, as POST /v1/ingest/records ' +
      'takes them) in batches of up to 1,000, then follow them until they are processed',
  )
  .argument('<file>', 'NDJSON file of ingest records')
  .option('--no-wait', 'exit once every batch is queued, without following them')
  .action((file: string, options: { wait: boolean }) =>
    withContext(async (app) => {
      const ingestion = new FileIngestion(
        app.get(AppConfig),
        app.get(IngestService),
        app.get(BatchStatusService),
      );
      const check = await ingestion.check(file);
      if (check.records === 0) throw new Error(`${file} holds no record`);
      if (check.invalid.length > 0) {
        for (const invalid of check.invalid) console.error(describeInvalid(invalid));
        throw new Error(
          `${check.invalid.length} of ${check.records} records in ${file} are invalid; ` +
            'nothing was queued',
        );
      }
      const display = new ProgressDisplay();
      const queued = display.add('queued', check.records, 'records');
      const processed = options.wait ? display.add('processed', check.records, 'records') : null;
      let batches: QueuedBatch[];
      let outcome: FileOutcome | null = null;
      try {
        batches = await ingestion.queue(file, `cli-${randomUUID()}`, queued);
        queued.finish();
        if (processed) {
          const workers = await app
            .get(IngestQueue)
            .queue.getWorkersCount()
            .catch(() => null);
          if (workers === 0) {
            display.log(
              `no worker is consuming the ${INGEST_QUEUE} queue: the records wait until one starts`,
            );
          }
          outcome = await ingestion.follow(batches, processed, BATCH_POLL_MS);
        }
      } catch (error) {
        display.stop();
        if (!(error instanceof InvalidBatchError)) throw error;
        for (const invalid of error.invalid) console.error(describeInvalid(invalid));
        throw new Error(
          `${error.message}, nor any after it; the batches before it stay queued ` +
            `(did ${file} change while it was read?)`,
        );
      }
      display.stop();
      if (!outcome) {
        for (const batch of batches) {
          console.log(
            `batch ${batch.number} (lines ${batch.lines[0]}-${batch.lines.at(-1)}): ${batch.batchId}`,
          );
        }
        console.log(`${file}: ${plural(check.records, 'record')} queued`);
        return;
      }
      for (const line of describeOutcome(file, batches, outcome)) console.log(line);
      if (outcome.counts.failed > 0) {
        throw new Error(`${outcome.counts.failed} of ${outcome.records} records failed`);
      }
    }, 'queue'),
  );

program
  .command('export')
  .description(
    'write the pricing extractions recorded after a change-feed cursor (all without one) into ' +
      'a file, as GET /v1/api/export/pricing gives them but with no limit, and print the ' +
      'cursor to read on from',
  )
  .requiredOption('--output <file>', 'the file to write (replaced once the export is complete)')
  .addOption(
    new Option('--format <format>', 'one document per line, or one CSV line per charge')
      .choices(EXPORT_FORMATS)
      .default('ndjson'),
  )
  .option('--since <cursor>', "an export's X-Next-Cursor or the change feed's next_cursor")
  .option('--currency <code>', 'also convert every charge into this currency', currencyCode)
  .action((options: { output: string; format: ExportFormat; since?: string; currency?: string }) =>
    withContext(async (app) => {
      const { since, currency } = options;
      const after = since === undefined ? START_OF_FEED : decodeCursor(since);
      if (!after) throw new Error(`--since ${since} is not a cursor of the change feed`);
      const rates = app.get(ExchangeRateReader);
      const { extractions, next } = await writePricingExport(
        app.get(PricingSnapshotReader),
        {
          after,
          format: options.format,
          output: options.output,
          convert:
            currency === undefined
              ? undefined
              : (documents) =>
                  conversionTargetFor(
                    currency,
                    documents.flatMap((document) => document.plans),
                    (target, currencies) => rates.ratesFor(target, currencies),
                  ),
        },
        new ProgressDisplay(),
      );
      console.log(`${options.output}: ${plural(extractions, 'extraction')} (${options.format})`);
      console.log(`next cursor: ${encodeCursor(next)}`);
    }),
  );

program
  .command('queue:stats')
  .description('count the jobs of every queue by state')
  .option('--json', 'print JSON instead of a table')
  .action((options: { json?: boolean }) =>
    withContext(async (app) => {
      const inspector = new QueueInspector(app.get(AppConfig));
      try {
        const stats = Object.fromEntries(
          (await inspector.counts()).map(({ queue, paused, counts }) => [
            queue,
            { paused, ...counts },
          ]),
        );
        if (options.json) console.log(JSON.stringify(stats, null, 2));
        else console.table(stats);
      } finally {
        await inspector.onApplicationShutdown();
      }
    }, 'queue'),
  );

program
  .command('queue:retry-failed')
  .description(
    `retry the failed jobs of the ${INGEST_QUEUE} queue, oldest first, each with its full ` +
      'number of attempts again',
  )
  .option('--limit <n>', 'retry at most this many', positiveInteger)
  .action((options: { limit?: number }) =>
    withContext(async (app) => {
      const queue = app.get(IngestQueue).queue;
      // Ids only: a long list of failed jobs is not loaded into memory at once.
      const ids = await queue.getRanges(
        ['failed'],
        0,
        options.limit === undefined ? -1 : options.limit - 1,
        true,
      );
      let retried = 0;
      for (const id of ids) {
        const job = await queue.getJob(id);
        // Another operator, or the same record sent again, may have retried it meanwhile.
        const moved = await job
          ?.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true })
          .then(
            () => true,
            () => false,
          );
        if (moved) retried += 1;
      }
      const skipped = ids.length - retried;
      console.log(
        `retried ${plural(retried, 'failed job')} of the ${INGEST_QUEUE} queue` +
          (skipped > 0 ? ` (${skipped} no longer failed)` : ''),
      );
    }, 'queue'),
  );

program.parseAsync().catch((error: Error) => {
  console.error(
    error instanceof KeyRequestError ? `${error.field}: ${error.message}` : error.message,
  );
  process.exit(1);
});
