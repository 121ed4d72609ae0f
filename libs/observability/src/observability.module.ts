import { Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller.js';
import { MetricCollectors } from './metric-collectors.js';
import { Metrics } from './metrics.js';
import { MetricsController } from './metrics.controller.js';
import { QueueInspector } from './queue-inspector.js';
import { ReadinessIndicators } from './readiness.indicators.js';

/**
 * `/metrics` and `/health/*` for an HTTP process (the API, or the worker's own port). Global:
 * the API and the worker modules count into the one `Metrics` of their process.
 */
@Global()
@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [MetricsController, HealthController],
  providers: [Metrics, QueueInspector, MetricCollectors, ReadinessIndicators],
  exports: [Metrics],
})
export class ObservabilityModule {}
