import { Module } from '@nestjs/common';
import { AccessModule } from '#app/access';
import { AdminKeysController } from './admin-keys.controller.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { AdminTokenVerifier } from './admin-token.verifier.js';

/**
 * /admin: API keys under the admin token. The queue dashboard (queue-dashboard.ts) is mounted
 * on Fastify by http-app.ts and checks the token with the same AdminTokenVerifier.
 */
@Module({
  imports: [AccessModule],
  controllers: [AdminKeysController],
  providers: [AdminTokenGuard, AdminTokenVerifier],
})
export class AdminModule {}
