import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { ConfigModule, loadConfig } from '#app/config';
import {
  createLogger,
  installShutdownDeadline,
  loggingModule,
  ObservabilityModule,
} from '#app/observability';
import { PersistenceModule } from '#app/persistence';
import { Logger } from 'nestjs-pino';
import { WorkerModule } from './worker.module.js';

@Module({})
class WorkerProcessModule {}

/**
 * A worker process: consumes the ingest queue and runs the projections. Its only HTTP is
 * `/metrics` and `/health/*` on WORKER_METRICS_PORT, for the operator's scraper and probes.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config, 'worker');
  const app = await NestFactory.create<NestFastifyApplication>(
    {
      module: WorkerProcessModule,
      imports: [
        ConfigModule.forRoot(config),
        loggingModule(logger),
        PersistenceModule.forRoot({ statementTimeout: false }),
        CqrsModule.forRoot(),
        ObservabilityModule,
        WorkerModule,
      ],
    },
    new FastifyAdapter(),
    { bufferLogs: true },
  );
  app.useLogger(app.get(Logger));
  // Without useProcessExit Nest re-raises the signal after its hooks: exit 143, not 0.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  installShutdownDeadline(config.shutdownGraceMs, logger);
  await app.listen(config.observability.workerPort, config.http.host);
  const { port } = app.getHttpServer().address() as { port: number };
  logger.info({ port }, 'worker started; /metrics and /health/* on the port');
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
