import { Module } from '@nestjs/common';
import { CompaniesProjector } from './companies.projector.js';
import { ExchangeRatesProjector } from './exchange-rates.projector.js';
import { PagesProjector } from './pages.projector.js';
import { PlanSearchProjector } from './plan-search.projector.js';
import { PriceIndexProjector } from './price-index.projector.js';
import { PricingChangesProjector } from './pricing-changes.projector.js';
import { PricingSnapshotsProjector } from './pricing-snapshots.projector.js';
import { ProjectionRunner } from './projection-runner.js';
import { PROJECTORS, type Projector } from './projector.js';
import { ScrapeFilesProjector } from './scrape-files.projector.js';

const PROJECTOR_CLASSES = [
  CompaniesProjector,
  PagesProjector,
  ScrapeFilesProjector,
  PricingSnapshotsProjector,
  PricingChangesProjector,
  ExchangeRatesProjector,
  PlanSearchProjector,
  PriceIndexProjector,
];

/** The projectors and the runner that moves them; the worker schedules it, the CLI rebuilds. */
@Module({
  providers: [
    ...PROJECTOR_CLASSES,
    {
      provide: PROJECTORS,
      useFactory: (...projectors: Projector[]) => projectors,
      inject: PROJECTOR_CLASSES,
    },
    ProjectionRunner,
  ],
  exports: [ProjectionRunner],
})
export class ProjectionsModule {}
