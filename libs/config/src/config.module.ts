import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from './app-config.js';

/** Provides the one AppConfig; the entry point builds it (loadConfig) and hands it in. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: AppConfig, useValue: config }],
      exports: [AppConfig],
    };
  }
}
