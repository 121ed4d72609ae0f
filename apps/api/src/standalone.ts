import { loadConfig } from '#app/config';
import { createLogger, installShutdownDeadline } from '#app/observability';
import { WorkerModule } from '../../worker/src/worker.module.js';
import { loadDemoDataIfEmpty } from './demo/demo-loader.js';
import { createHttpApp } from './http-app.js';
import { DEFAULT_REDIS_URL, startLocalRedisIfNeeded } from './local-redis.js';

/** API and worker in one process on the embedded database: what `npm start` runs. */
async function main(): Promise<void> {
  const config = loadConfig(process.env, { demoDataByDefault: true });
  const redis =
    config.redis.url === DEFAULT_REDIS_URL ? await startLocalRedisIfNeeded('./data/redis') : null;
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
    console.log(
      [
        `Queued the demo catalogue: ${demo.records} records in ${demo.batchIds.length} batches.`,
        `Demo key (scopes read and ingest; shown only now, keep it): ${demo.key}`,
        `  curl -H "Authorization: Bearer ${demo.key}" ${baseUrl}/ingest/batches/${demo.batchIds.at(-1)}`,
      ].join('\n'),
    );
  } else {
    console.log(
      'Create a key with: npm run cli -- keys:create --name me --plan enterprise --scopes read,ingest',
    );
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
