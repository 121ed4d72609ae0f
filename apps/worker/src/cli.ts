import 'reflect-metadata';
import { Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  AccessModule,
  ApiKeysService,
  KeyRequestError,
  RequestMeter,
  type ApiKeyScope,
} from '#app/access';
import { ConfigModule, loadConfig } from '#app/config';
import { PersistenceModule } from '#app/persistence';
import { Command } from 'commander';
import { ProjectionRunner } from './projections/projection-runner.js';
import { ProjectionsModule } from './projections/projections.module.js';

@Module({})
class CliModule {}

/** An application context with the database migrated; closed once the command is done. */
async function withContext<T>(work: (app: INestApplicationContext) => Promise<T>): Promise<T> {
  const app = await NestFactory.createApplicationContext(
    {
      module: CliModule,
      imports: [
        ConfigModule.forRoot(loadConfig()),
        PersistenceModule.forRoot(),
        AccessModule,
        ProjectionsModule,
      ],
    },
    { logger: ['error', 'warn'] },
  );
  try {
    return await work(app);
  } finally {
    await app.close();
  }
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
      const applied = await app
        .get(ProjectionRunner)
        .rebuild((projector, count) =>
          process.stdout.write(`\r${projector}: +${count} events`.padEnd(60)),
        );
      console.log(`\nrebuilt: ${applied} events applied in ${Date.now() - started} ms`);
    }),
  );

program.parseAsync().catch((error: Error) => {
  console.error(
    error instanceof KeyRequestError ? `${error.field}: ${error.message}` : error.message,
  );
  process.exit(1);
});
