import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SIGNIFICANCES, type PricingChangeType, type Significance } from '#app/domain';
import type { FeedPosition } from '#app/persistence';
import { KeyAccess } from '../auth/api-key.guard.js';
import { ApiQueryOf, declaredQuery } from '../http/query-declaration.js';
import { Company, EventType, FeedCursor, Integer, OneOf } from '../http/query-parameters.js';
import { CreditCost } from '../metering/credit-cost.decorator.js';
import { ApiErrorResponses, ApiKeyAuth } from '../openapi/decorators.js';
import { EXAMPLES } from '../openapi/parameters.js';
import { ChangeFeedDto } from './changes.dto.js';
import { CHANGES_ERROR_EXAMPLES } from './changes.examples.js';
import { ChangesQueries } from './changes.queries.js';

class ChangeFeedQuery {
  @FeedCursor(
    { description: 'A next_cursor from an earlier answer (opaque)', example: 'MC40Mi4w' },
    'since is not a cursor of this feed: pass a next_cursor as it was given',
  )
  since!: FeedPosition;

  @Integer({ minimum: 1, maximum: 500, default: 100, description: 'Changes per page' })
  limit!: number;

  @Company({
    description: 'Only the changes of this company (its full slug)',
    example: EXAMPLES.companySlug,
  })
  company?: string;

  @EventType({ description: 'Only changes of this type', example: 'price_increased' })
  event_type?: PricingChangeType;

  @OneOf(SIGNIFICANCES, {
    description:
      'Only changes of this significance or more: minor (every change), moderate (moderate ' +
      'and major) or major',
    example: 'moderate',
  })
  min_significance?: Significance;
}

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
      'arrive; an empty page still has a next_cursor to poll with. Each change says how much ' +
      'it matters (significance; a price change also its change_percent).',
  })
  @ApiQueryOf(ChangeFeedQuery)
  @ApiOkResponse({
    type: ChangeFeedDto,
    description: 'A page of changes and the cursor to read on from',
  })
  @ApiErrorResponses('general', [400, 401, 403, 500], CHANGES_ERROR_EXAMPLES.list)
  async list(@Query(declaredQuery) query: ChangeFeedQuery) {
    return this.changes.page({
      after: query.since,
      limit: query.limit,
      companySlug: query.company,
      eventType: query.event_type,
      minSignificance: query.min_significance,
    });
  }
}
