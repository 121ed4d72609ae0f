import { Controller, Get, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { KeyAccess } from '../auth/api-key.guard.js';
import { CreditCost } from '../metering/credit-cost.decorator.js';
import { ApiErrorResponses, ApiKeyAuth } from '../openapi/decorators.js';
import { UsageDto } from '../openapi/shared.dto.js';
import { usageRepresentation } from '../metering/usage-representation.js';

@Controller('api/usage')
@KeyAccess()
@ApiTags('Usage')
@ApiKeyAuth()
@CreditCost(0)
export class UsageController {
  /** The guard has read the counters (without counting this request): nothing more to ask. */
  @Get()
  @ApiOperation({
    operationId: 'getUsage',
    summary: "The caller's plan, hourly window and credits",
    description:
      'Any valid key may ask. Never charged nor counted in the hourly window; the burst limit ' +
      'applies.',
  })
  @ApiOkResponse({ type: UsageDto, description: "The key's plan and counters" })
  // 403: a key whose plan was taken out of the configuration has no limits to read.
  @ApiErrorResponses('general', [401, 403, 429, 500, 503])
  usage(@Req() request: FastifyRequest) {
    return usageRepresentation(request.apiKey!.plan, request.metering!.reading);
  }
}
