import { Module } from '@nestjs/common';
import { AdmissionModule } from '../auth/admission.module.js';
import { CatalogueModule } from '../catalogue/catalogue.module.js';
import { PagesController } from './pages.controller.js';
import { PagesQueries } from './pages.queries.js';

/** GET /v1/api/pages/{slug}. */
@Module({
  imports: [AdmissionModule, CatalogueModule],
  controllers: [PagesController],
  providers: [PagesQueries],
})
export class PagesModule {}
