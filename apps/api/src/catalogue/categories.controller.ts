import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CATEGORIES } from '#app/domain';
import { CompanyReader } from '#app/persistence';
import { ApiKeyGuard } from '../auth/api-key.guard.js';
import { CreditCost } from '../metering/credit-cost.decorator.js';
import { CategoriesDto } from '../openapi/catalogue.dto.js';
import { ApiErrorResponses, ApiKeyAuth } from '../openapi/decorators.js';

/** What a client can filter the companies list by, and how many companies each has. */
@Controller('api/categories')
@UseGuards(ApiKeyGuard('read', 'companies'))
@ApiTags('Companies')
@ApiKeyAuth()
@CreditCost(0)
export class CategoriesController {
  constructor(private readonly companies: CompanyReader) {}

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
  async list() {
    const counts = await this.companies.countByCategory();
    const categories = CATEGORIES.map((category) => ({
      category,
      companies: counts.get(category) ?? 0,
    }));
    return {
      categories,
      total_companies: categories.reduce((sum, one) => sum + one.companies, 0),
    };
  }
}
