import 'reflect-metadata';
import { Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { ConfigModule, enabledLogLevels, loadConfig, type AppConfig } from '#app/config';
import { PersistenceModule } from '#app/persistence';
import { WorkerModule } from './worker.module.js';

@Module({})
class WorkerProcessModule {}

export async function startWorker(config: AppConfig) {
  const app = await NestFactory.createApplicationContext(
    {
      module: WorkerProcessModule,
      imports: [
        ConfigModule.forRoot(config),
        PersistenceModule.forRoot(),
        CqrsModule.forRoot(),
        WorkerModule,
      ],
    },
    { logger: enabledLogLevels(config.logLevel) },
  );
  app.enableShutdownHooks();
  await app.init();
  return app;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  startWorker(loadConfig()).then(
    () => new Logger('Worker').log('worker started'),
    (error: Error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}
