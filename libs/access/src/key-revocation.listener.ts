import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { createRedisConnection, type RedisConnection } from '#app/contracts';
import { AccessRedis } from './access-redis.js';
import { ApiKeysService } from './api-keys.service.js';

/**
 * In an API process: drops a revoked key from the key cache as soon as any process announces
 * the revocation. Announcements sent while this subscription was down are lost, so every
 * (re)connection empties the cache.
 */
@Injectable()
export class KeyRevocationListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly subscriber: RedisConnection;

  constructor(
    config: AppConfig,
    private readonly redis: AccessRedis,
    private readonly keys: ApiKeysService,
  ) {
    this.subscriber = createRedisConnection(config.redis, 'key-revocations', {
      lazyConnect: true,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    this.subscriber.on('ready', () => this.keys.forgetAllCached());
    this.subscriber.on('message', (_channel: string, id: string) => this.keys.forgetCached(id));
    // Not awaited: with Redis away the process still starts, and answers 503 until it returns.
    this.subscriber.subscribe(this.redis.revocationChannel).catch(() => undefined);
  }

  onApplicationShutdown(): void {
    this.subscriber.disconnect();
  }
}
