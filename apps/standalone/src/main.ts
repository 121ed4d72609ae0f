import { loadConfig } from '#app/config';
import { createLogger, installShutdownDeadline } from '#app/observability';
import {
  demoLoaded,
  loadDemoDataIfEmpty,
  type DemoProgress,
} from '../../api/src/demo/demo-loader.js';
import { createHttpApp } from '../../api/src/http-app.js';
import { DEFAULT_REDIS_URL, startLocalRedisIfNeeded } from '../../api/src/local-redis.js';
import { WorkerModule } from '../../worker/src/worker.module.js';

/** How often the demo load's progress is printed at most. */
const PROGRESS_EVERY_MS = 3_000;

/**
 * API and worker in one process on the embedded database: what `npm start` runs. What a
 * newcomer needs (the address, then the demo key and what to try) is printed last, once the
 * demo catalogue can be read, and the JSON log stays at warnings unless LOG_LEVEL says more.
 */
async function main(): Promise<void> {
  const config = loadConfig(undefined, { demoDataByDefault: true, logLevelByDefault: 'warn' });
  const usesDefaultRedis = !config.redis.clusterNodes && config.redis.url === DEFAULT_REDIS_URL;
  const redis = usesDefaultRedis ? await startLocalRedisIfNeeded('./data/redis') : null;
  if (redis) console.log('Started redis-server on 127.0.0.1:6379 (data in ./data/redis)');

  const app = await createHttpApp(config, { extraModules: [WorkerModule], shutdownHooks: false });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // The worker finishes its jobs before Redis, which it needs for that, goes away.
    await app.close();
    redis?.kill('SIGTERM');
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  installShutdownDeadline(config.shutdownGraceMs, createLogger(config, 'api+worker'));

  await app.listen(config.http.port, config.http.host);
  const baseUrl = `http://${config.http.host}:${config.http.port}/v1`;
  console.log(`Pricing intelligence API (with worker) on ${baseUrl}`);

  const demo = config.demoData ? await loadDemoDataIfEmpty(app) : null;
  if (demo) {
    console.log(`Loading the demo catalogue: ${demo.records} records through the ingestion queue`);
    let printedAt = Date.now();
    const loaded = await demoLoaded(app, demo, (progress) => {
      if (Date.now() - printedAt < PROGRESS_EVERY_MS) return;
      printedAt = Date.now();
      console.log(`  ${progress.settled}/${progress.records} records`);
    });
    console.log(summary(loaded));
  }
  console.log(nextSteps(baseUrl, demo?.key ?? null));
}

function summary({ records, counts }: DemoProgress): string {
  const problems = counts.failed + counts.unknown;
  return problems === 0
    ? `Loaded the demo catalogue: ${records} records.`
    : `Loaded the demo catalogue: ${records - problems} of ${records} records; ` +
        `${problems} failed (see the queue dashboard, /v1/admin/queues, or npm run cli -- queue:stats).`;
}

function nextSteps(baseUrl: string, demoKey: string | null): string {
  const lines = [''];
  if (demoKey) {
    lines.push(
      'Demo key (scopes read and ingest; shown only now, keep it):',
      `  ${demoKey}`,
      '',
      'Try:',
      `  curl -H "Authorization: Bearer ${demoKey}" "${baseUrl}/api/companies?limit=5"`,
      `  curl -H "Authorization: Bearer ${demoKey}" "${baseUrl}/api/pricing/acmechat"`,
    );
  } else {
    lines.push(
      'Create a key with:',
      '  npm run cli -- keys:create --name me --plan enterprise --scopes read,ingest',
    );
  }
  lines.push(
    '',
    `Docs: ${baseUrl}/docs   OpenAPI: ${baseUrl}/api/openapi.json   Index: ${baseUrl}`,
    `Explorer (in a browser, with the key): ${new URL('/explorer', baseUrl).href}`,
    'Stop with Ctrl+C. LOG_LEVEL=log shows every request and job in the log.',
  );
  return lines.join('\n');
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
