import { Controller, Get, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import type { FastifyReply } from 'fastify';
import { ReadinessIndicators } from './readiness.indicators.js';

/**
 * `/health/live`: the process runs (restart it if not). `/health/ready`: it can serve: the
 * database answers and has no pending migration, Redis and the queues answer, and no
 * projection is far behind (route traffic elsewhere if not). Terminus's body either way.
 */
@Controller('health')
@ApiExcludeController()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly readiness: ReadinessIndicators,
  ) {}

  @Get('live')
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    try {
      return await this.health.check([
        () => this.database.pingCheck('database', { timeout: 2_000 }),
        () => this.readiness.migrations('migrations'),
        () => this.readiness.redis('redis'),
        () => this.readiness.queues('queues'),
        () => this.readiness.projections('projections'),
      ]);
    } catch (error) {
      // The global error filter would reshape it; operators' probes read terminus's body.
      if (!(error instanceof ServiceUnavailableException)) throw error;
      void reply.status(503);
      return error.getResponse();
    }
  }
}
