import { ApiSchema } from '@nestjs/swagger';
import { API_KEY_SCOPES } from '#app/access';
import { Properties } from '../openapi/properties.js';

/** Response bodies of the admin key routes, as documentation classes (libs/access shapes them). */

@ApiSchema({
  name: 'CreatedApiKey',
  description: 'A new key. This is the only response that ever shows `key`: keep it.',
})
export class CreatedApiKeyDto extends Properties({
  id: { format: 'uuid', example: '2d9c0b5e-1f4a-4e63-9b8d-7a6c5e4f3d2b' },
  key: {
    description: 'The secret key; stored only as a hash, never shown again',
    pattern: '^pi_[A-Za-z0-9_-]{43}$',
    example: 'pi_Xk2v9QdL0sT3mWcR7yHbN4eJ8uA1fG6pZ5oI0kE2rBc',
  },
  name: { example: 'pipeline' },
  plan: { description: 'One of the configured plans', example: 'pro' },
  scopes: { enum: API_KEY_SCOPES, isArray: true, example: ['read'] },
  expires_at: { format: 'date-time', nullable: true, example: null },
  created_at: { format: 'date-time', example: '2025-10-16T08:30:00.000Z' },
}) {}

@ApiSchema({ name: 'ApiKey', description: 'A key as admins see it: everything but the secret.' })
class ApiKeyViewDto extends Properties({
  id: { format: 'uuid', example: '2d9c0b5e-1f4a-4e63-9b8d-7a6c5e4f3d2b' },
  name: { example: 'pipeline' },
  key_prefix: {
    description: 'The first characters of the key, to tell keys apart',
    example: 'pi_Xk2v',
  },
  plan: { example: 'pro' },
  scopes: { enum: API_KEY_SCOPES, isArray: true, example: ['read', 'ingest'] },
  status: { enum: ['active', 'revoked', 'expired'], example: 'active' },
  expires_at: { format: 'date-time', nullable: true, example: null },
  revoked_at: { format: 'date-time', nullable: true, example: null },
  created_at: { format: 'date-time', example: '2025-10-16T08:30:00.000Z' },
  last_used_at: {
    format: 'date-time',
    nullable: true,
    description: 'Last authenticated use, to the minute; null when never used',
    example: '2025-10-16T09:12:00.000Z',
  },
}) {}

@ApiSchema({ name: 'ApiKeyList' })
export class ApiKeyListDto extends Properties({
  data: { type: () => [ApiKeyViewDto] },
}) {}
