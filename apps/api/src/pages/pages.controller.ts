import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { KeyAccess } from '../auth/api-key.guard.js';
import { ApiErrorResponses, ApiKeyAuth } from '../openapi/decorators.js';
import { CreditCost } from '../metering/credit-cost.decorator.js';
import { PAGE_SLUG_PARAMETER } from '../openapi/parameters.js';
import { PageReferenceDto } from '../openapi/shared.dto.js';
import { PAGES_ERROR_EXAMPLES } from './pages.examples.js';
import { PagesQueries } from './pages.queries.js';

@Controller('api/pages')
@KeyAccess({ scope: 'read', feature: 'pages' })
@ApiTags('Pages')
@ApiKeyAuth()
@CreditCost(1)
export class PagesController {
  constructor(private readonly pages: PagesQueries) {}

  @Get(':slug')
  @ApiOperation({
    operationId: 'getPage',
    summary: 'One pricing page by slug',
    description:
      'A company slug means its primary page (empty sub-slug), or its only page when it has ' +
      'just one; a company with several pages and no primary one gives 400, with the ' +
      'composite slugs of its pages in details.pages.',
  })
  @ApiParam(PAGE_SLUG_PARAMETER)
  @ApiOkResponse({ type: PageReferenceDto, description: 'The pricing page reference' })
  @ApiErrorResponses('general', [400, 401, 403, 404, 500], PAGES_ERROR_EXAMPLES.one)
  one(@Param('slug') slug: string) {
    return this.pages.one(slug);
  }
}
