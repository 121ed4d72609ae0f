import { Module } from '@nestjs/common';
import { AdmissionModule } from '../auth/admission.module.js';
import { CatalogueModule } from '../catalogue/catalogue.module.js';
import { ReadLaneModule } from '../http/read-lane.module.js';
import { CategoriesController } from './categories.controller.js';
import { CompaniesController } from './companies.controller.js';
import { CompaniesQueries } from './companies.queries.js';

/** GET /v1/api/companies, /companies/{slug} and /categories. */
@Module({
  imports: [AdmissionModule, CatalogueModule, ReadLaneModule],
  controllers: [CompaniesController, CategoriesController],
  providers: [CompaniesQueries],
})
export class CompaniesModule {}
