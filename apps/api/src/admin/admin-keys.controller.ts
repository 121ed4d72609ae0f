import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  UseGuards,
  UsePipes,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { ApiKeysService, RequestMeter, type ApiKeyView } from '#app/access';
import { ApiError } from '../errors/api-error.js';
import { validationPipe } from '../http/validation.pipe.js';
import { ApiKeyListDto, CreatedApiKeyDto } from './admin.dto.js';
import { ADMIN_KEYS_ERROR_EXAMPLES } from './admin.examples.js';
import { KeyUsageDto } from '../openapi/shared.dto.js';
import { usageRepresentation } from '../metering/usage-representation.js';
import { AdminAuth, ApiErrorResponses } from '../openapi/decorators.js';
import { idParameter } from '../openapi/parameters.js';
import { PATTERNS } from '../openapi/patterns.js';
import { CreditCost } from '../metering/credit-cost.decorator.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { CreateKeyDto } from './create-key.dto.js';

const KEY_ID = new RegExp(PATTERNS.uuid);

@Controller('admin/keys')
@UseGuards(AdminTokenGuard)
@ApiTags('Admin')
@AdminAuth()
@CreditCost(0)
export class AdminKeysController {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly meter: RequestMeter,
  ) {}

  /** The only response that ever shows the key itself. */
  @Post()
  @HttpCode(201)
  @UsePipes(validationPipe)
  @ApiOperation({
    operationId: 'createApiKey',
    summary: 'Create an API key',
    description: 'The answer is the only time the key itself is shown. Unknown fields are refused.',
  })
  @ApiCreatedResponse({ type: CreatedApiKeyDto, description: 'The new key, shown once' })
  @ApiErrorResponses('general', [400, 401, 413, 415, 500], ADMIN_KEYS_ERROR_EXAMPLES.create)
  async create(@Body() body: CreateKeyDto) {
    const created = await this.keys.create({
      name: body.name,
      plan: body.plan,
      scopes: body.scopes,
      expiresAt: body.expires_at ?? null,
    });
    return {
      id: created.id,
      key: created.key,
      name: created.name,
      plan: created.plan,
      scopes: created.scopes,
      expires_at: created.expires_at,
      created_at: created.created_at,
    };
  }

  @Get()
  @ApiOperation({
    operationId: 'listApiKeys',
    summary: 'List API keys',
    description: 'Every key with its status and last use; never a secret.',
  })
  @ApiOkResponse({ type: ApiKeyListDto, description: 'Every key' })
  @ApiErrorResponses('general', [401, 500], ADMIN_KEYS_ERROR_EXAMPLES.list)
  async list(): Promise<{ data: ApiKeyView[] }> {
    return { data: await this.keys.list() };
  }

  /** Revoking is idempotent: a revoked key stays revoked, and the answer is the same. */
  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key',
    description: 'Idempotent: revoking a revoked key answers 204 again.',
  })
  @ApiParam(idParameter('The key id', '2d9c0b5e-1f4a-4e63-9b8d-7a6c5e4f3d2b'))
  @ApiNoContentResponse({ description: 'The key is revoked' })
  @ApiErrorResponses('general', [400, 401, 404, 500], ADMIN_KEYS_ERROR_EXAMPLES.revoke)
  async revoke(@Param('id') id: string): Promise<void> {
    await this.existingKey(id);
    await this.keys.revoke(id);
  }

  @Get(':id/usage')
  @ApiOperation({
    operationId: 'getApiKeyUsage',
    summary: "An API key's counters",
    description:
      'Its hourly window (count and end) and its credits (used, remaining, reset), read without ' +
      'counting anything.',
  })
  @ApiParam(idParameter('The key id', '2d9c0b5e-1f4a-4e63-9b8d-7a6c5e4f3d2b'))
  @ApiOkResponse({ type: KeyUsageDto, description: "The key's plan and counters" })
  @ApiErrorResponses('general', [400, 401, 404, 429, 500, 503], ADMIN_KEYS_ERROR_EXAMPLES.usage)
  async usage(@Param('id') id: string) {
    const key = await this.existingKey(id);
    const reading = await this.meter.read(id, key.plan);
    return { id, name: key.name, status: key.status, ...usageRepresentation(key.plan, reading) };
  }

  private async existingKey(id: string): Promise<ApiKeyView> {
    // Key ids are UUIDs: other text names no key and is not sent to the database (PostgreSQL
    // refuses a NUL in a query parameter, which would be a 500).
    const key = KEY_ID.test(id) ? await this.keys.find(id) : null;
    if (!key) throw new ApiError(404, 'KEY_NOT_FOUND', `No API key ${id}`, { id });
    return key;
  }
}
