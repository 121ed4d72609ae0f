import { Module } from '@nestjs/common';
import { AccessRedis } from './access-redis.js';
import { ApiKeysService } from './api-keys.service.js';
import { AuthFailureLimiter } from './metering/auth-failure-limiter.js';
import { RequestMeter } from './metering/request-meter.js';

@Module({
  providers: [AccessRedis, ApiKeysService, RequestMeter, AuthFailureLimiter],
  exports: [AccessRedis, ApiKeysService, RequestMeter, AuthFailureLimiter],
})
export class AccessModule {}
