import { randomBytes, randomUUID } from 'node:crypto';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Req,
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
import { AppConfig } from '#app/config';
import { categoryNamed } from '#app/domain';
import { WebhookRepository, type WebhookEntity } from '#app/persistence';
import { webhookUrlProblem } from '#app/webhooks';
import type { FastifyRequest } from 'fastify';
import { KeyAccess } from '../auth/api-key.guard.js';
import { ApiError } from '../errors/api-error.js';
import { validationPipe } from '../http/validation.pipe.js';
import { CreditCost } from '../metering/credit-cost.decorator.js';
import { ApiErrorResponses, ApiKeyAuth } from '../openapi/decorators.js';
import { idParameter } from '../openapi/parameters.js';
import { PATTERNS } from '../openapi/patterns.js';
import {
  CreatedWebhookDto,
  MAX_WEBHOOKS_PER_KEY,
  RegisterWebhookDto,
  WebhookListDto,
} from './webhooks.dto.js';
import { WEBHOOKS_ERROR_EXAMPLES } from './webhooks.examples.js';

const WEBHOOK_ID = new RegExp(PATTERNS.uuid);

/**
 * Webhooks of the calling key: each receives every pricing change recorded after it was
 * registered (the worker delivers them), filtered by event type, company, category,
 * significance and price change size if asked.
 */
@Controller('api/webhooks')
@KeyAccess({ scope: 'read', feature: 'webhooks' })
@ApiTags('Webhooks')
@ApiKeyAuth()
@CreditCost(1)
export class WebhooksController {
  constructor(
    private readonly config: AppConfig,
    private readonly webhooks: WebhookRepository,
  ) {}

  /** The only response that ever shows the signing secret. */
  @Post()
  @HttpCode(201)
  @UsePipes(validationPipe)
  @ApiOperation({
    operationId: 'registerWebhook',
    summary: 'Register a webhook',
    description:
      'The URL receives, as a signed POST, the pricing changes of every extraction recorded ' +
      'from now on (one delivery per extraction, its changes in feed order), retried with ' +
      'backoff until it answers 2xx. The answer is the only time the secret is shown.',
  })
  @ApiCreatedResponse({ type: CreatedWebhookDto, description: 'The webhook and its secret' })
  @ApiErrorResponses('general', [400, 401, 403, 413, 415, 500], WEBHOOKS_ERROR_EXAMPLES.register)
  async register(@Req() request: FastifyRequest, @Body() body: RegisterWebhookDto) {
    const apiKeyId = request.apiKey!.id;
    const problem = await webhookUrlProblem(body.url, {
      allowPrivate: this.config.webhooks.allowPrivateUrls,
    });
    if (problem) {
      throw new ApiError(400, 'INVALID_WEBHOOK_URL', problem, {
        parameter: 'url',
        provided: body.url,
      });
    }
    const webhook = await this.webhooks.register(
      {
        id: randomUUID(),
        apiKeyId,
        url: body.url,
        secret: `whsec_${randomBytes(32).toString('base64url')}`,
        eventTypes: body.event_types ? [...new Set(body.event_types)] : null,
        companies: body.companies ? [...new Set(body.companies)] : null,
        // Validated as categories: each names one, spelled here as the companies are.
        categories: body.categories
          ? [...new Set(body.categories.map((text) => categoryNamed(text)!))]
          : null,
        minSignificance: body.min_significance ?? null,
        minChangePercent: body.min_change_percent ?? null,
        createdAt: new Date().toISOString(),
      },
      MAX_WEBHOOKS_PER_KEY,
    );
    if (!webhook) {
      throw new ApiError(
        400,
        'WEBHOOK_LIMIT',
        `A key holds at most ${MAX_WEBHOOKS_PER_KEY} webhooks: delete one first`,
        { limit: MAX_WEBHOOKS_PER_KEY },
      );
    }
    return { ...representation(webhook), secret: webhook.secret };
  }

  @Get()
  @ApiOperation({
    operationId: 'listWebhooks',
    summary: "The key's webhooks",
    description: 'Oldest first; never a secret.',
  })
  @ApiOkResponse({ type: WebhookListDto, description: "The key's webhooks" })
  @ApiErrorResponses('general', [401, 403, 500])
  async list(@Req() request: FastifyRequest) {
    const webhooks = await this.webhooks.listForKey(request.apiKey!.id);
    return { webhooks: webhooks.map(representation) };
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook',
    description: 'Its deliveries still queued are dropped, not sent.',
  })
  @ApiParam(idParameter('The webhook id', '6f1c2b9e-0d4a-4a7b-9c1e-2f3d4e5a6b7c'))
  @ApiNoContentResponse({ description: 'The webhook is deleted' })
  @ApiErrorResponses('general', [400, 401, 403, 404, 500], WEBHOOKS_ERROR_EXAMPLES.delete)
  async delete(@Req() request: FastifyRequest, @Param('id') id: string): Promise<void> {
    // Webhook ids are UUIDs: other text names none and is not sent to the database.
    const deleted =
      WEBHOOK_ID.test(id) && (await this.webhooks.deleteForKey(id, request.apiKey!.id));
    // Another key's webhook is as unknown as a missing one: its existence is not shown.
    if (!deleted) throw new ApiError(404, 'WEBHOOK_NOT_FOUND', `No webhook ${id}`, { id });
  }
}

function representation(webhook: WebhookEntity) {
  return {
    id: webhook.id,
    url: webhook.url,
    event_types: webhook.eventTypes,
    companies: webhook.companies,
    categories: webhook.categories,
    min_significance: webhook.minSignificance,
    min_change_percent: webhook.minChangePercent,
    created_at: webhook.createdAt,
  };
}
