import 'reflect-metadata';
import { Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { ConfigModule, enabledLogLevels, loadConfig } from '#app/config';
import { PersistenceModule } from '#app/persistence';
import { WorkerModule } from './worker.module.js';

@Module({})
class WorkerProcessModule {}

async function main(): Promise<void> {
  const config = loadConfig();
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
  // Without useProcessExit Nest re-raises the signal after its hooks: exit 143, not 0.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  await app.init();
  new Logger('Worker').log('worker started');
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
