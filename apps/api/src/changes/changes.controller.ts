import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { PRICING_CHANGE_TYPES } from '#app/domain';
import { KeyAccess } from '../auth/api-key.guard.js';
import {
  feedCursorParameter,
  companyParameter,
  eventTypeParameter,
  integerParameter,
  type QueryValue,
} from '../http/query-parameters.js';
import { CreditCost } from '../metering/credit-cost.decorator.js';
import { ApiErrorResponses, ApiKeyAuth } from '../openapi/decorators.js';
import { EXAMPLES } from '../openapi/parameters.js';
import { PATTERNS } from '../openapi/patterns.js';
import { ChangeFeedDto } from './changes.dto.js';
import { CHANGES_ERROR_EXAMPLES } from './changes.examples.js';
import { ChangesQueries } from './changes.queries.js';

/** Pricing changes of every page, in the order the log recorded them, read on by a cursor. */
@Controller('api/changes')
@KeyAccess({ scope: 'read', feature: 'pricing' })
@ApiTags('Pricing')
@ApiKeyAuth()
@CreditCost(1)
export class ChangesController {
  constructor(private readonly changes: ChangesQueries) {}

  @Get()
  @ApiOperation({
    operationId: 'listChanges',
    summary: 'Feed of pricing changes across all companies, oldest first',
    description:
      "Each extraction's changes from the page's latest version before it (a page's first " +
      'extraction adds its plans; an extraction older than the latest adds nothing). Without ' +
      'since, from the beginning; with the next_cursor of the previous page, from there on. ' +
      'Following next_cursor gives every change once, in order, also while new extractions ' +
      'arrive; an empty page still has a next_cursor to poll with.',
  })
  @ApiQuery({
    name: 'since',
    required: false,
    type: String,
    pattern: '^[A-Za-z0-9_-]+$',
    description: 'A next_cursor from an earlier answer (opaque)',
    example: 'MC40Mi4w',
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    type: 'integer',
    minimum: 1,
    maximum: 500,
    default: 100,
    description: 'Changes per page',
  })
  @ApiQuery({
    name: 'company',
    required: false,
    type: String,
    pattern: PATTERNS.companySlug,
    description: 'Only the changes of this company (its full slug)',
    example: EXAMPLES.companySlug,
  })
  @ApiQuery({
    name: 'event_type',
    required: false,
    // A schema of its own: Nest drops the example of an `enum:` parameter.
    schema: { type: 'string', enum: [...PRICING_CHANGE_TYPES], example: 'price_increased' },
    description: 'Only changes of this type',
  })
  @ApiOkResponse({
    type: ChangeFeedDto,
    description: 'A page of changes and the cursor to read on from',
  })
  @ApiErrorResponses('general', [400, 401, 403, 500], CHANGES_ERROR_EXAMPLES.list)
  async list(
    @Query('since') sinceValue: QueryValue,
    @Query('limit') limitValue: QueryValue,
    @Query('company') companyValue: QueryValue,
    @Query('event_type') eventTypeValue: QueryValue,
  ) {
    const after = feedCursorParameter(
      sinceValue,
      'since is not a cursor of this feed: pass a next_cursor as it was given',
    );
    return this.changes.page({
      after,
      limit: integerParameter('limit', limitValue, { fallback: 100, min: 1, max: 500 }),
      companySlug: companyParameter(companyValue),
      eventType: eventTypeParameter(eventTypeValue),
    });
  }
}
