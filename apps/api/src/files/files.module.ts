import { Module } from '@nestjs/common';
import { AdmissionModule } from '../auth/admission.module.js';
import { CatalogueModule } from '../catalogue/catalogue.module.js';
import { FilesController } from './files.controller.js';
import { FilesQueries } from './files.queries.js';

/** GET /v1/api/files/{slug}/...: scrape files by version, quarter, month, week or period. */
@Module({
  imports: [AdmissionModule, CatalogueModule],
  controllers: [FilesController],
  providers: [FilesQueries],
})
export class FilesModule {}
