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
import { ApiKeysService, KeyRequestError, type ApiKeyView } from '#app/access';
import { ApiError } from '../errors/api-error.js';
import { validationPipe } from '../http/validation.pipe.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { CreateKeyDto } from './create-key.dto.js';

@Controller('admin/keys')
@UseGuards(AdminTokenGuard)
export class AdminKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  /** The only response that ever shows the key itself. */
  @Post()
  @HttpCode(201)
  @UsePipes(validationPipe)
  async create(@Body() body: CreateKeyDto) {
    try {
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
    } catch (error) {
      if (error instanceof KeyRequestError) {
        throw new ApiError(400, 'INVALID_KEY_REQUEST', error.message, {
          parameter: error.field,
          provided: error.provided,
          ...(error.validValues ? { valid_values: error.validValues } : {}),
        });
      }
      throw error;
    }
  }

  @Get()
  async list(): Promise<{ data: ApiKeyView[] }> {
    return { data: await this.keys.list() };
  }

  /** Revoking is idempotent: a revoked key stays revoked, and the answer is the same. */
  @Delete(':id')
  @HttpCode(204)
  async revoke(@Param('id') id: string): Promise<void> {
    const key = await this.keys.find(id);
    if (!key) throw new ApiError(404, 'KEY_NOT_FOUND', `No API key ${id}`, { id });
    await this.keys.revoke(id);
  }
}
