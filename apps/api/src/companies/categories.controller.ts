import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { KeyAccess } from '../auth/api-key.guard.js';
import { CreditCost } from '../metering/credit-cost.decorator.js';
import { ApiErrorResponses, ApiKeyAuth } from '../openapi/decorators.js';
import { CategoriesDto } from './companies.dto.js';
import { CompaniesQueries } from './companies.queries.js';

/** What a client can filter the companies list by, and how many companies each has. */
@Controller('api/categories')
@KeyAccess({ scope: 'read', feature: 'companies' })
@ApiTags('Companies')
@ApiKeyAuth()
@CreditCost(0)
export class CategoriesController {
  constructor(private readonly companies: CompaniesQueries) {}

  @Get()
  @ApiOperation({
    operationId: 'listCategories',
    summary: 'The eight categories, each with its number of companies',
    description:
      'Every category, in a fixed order, also those without a company. Free: never charged nor ' +
      'counted in the hourly window; the burst limit applies. Needs the companies feature.',
  })
  @ApiOkResponse({ type: CategoriesDto, description: 'The categories and their companies' })
  @ApiErrorResponses('general', [401, 403, 500])
  list() {
    return this.companies.categories();
  }
}
