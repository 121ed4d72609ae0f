import { Injectable } from '@nestjs/common';
import { CompanyEntity } from '../entities/company.entity.js';
import { ExchangeRateEntity } from '../entities/exchange-rate.entity.js';
import { PricingChangeEntity } from '../entities/pricing-change.entity.js';
import { PricingPageEntity } from '../entities/pricing-page.entity.js';
import { PricingSnapshotEntity } from '../entities/pricing-snapshot.entity.js';
import { ScrapeFileEntity } from '../entities/scrape-file.entity.js';
import { PlanSearchTables } from './plan-search.tables.js';
import { PriceIndexTables } from './price-index.tables.js';
import { ReadModelTable } from './read-model-table.js';

/** The writable read-model tables, one per projector. */
@Injectable()
export class ReadModelTables {
  readonly companies = new ReadModelTable(CompanyEntity);
  readonly pages = new ReadModelTable(PricingPageEntity);
  readonly scrapeFiles = new ReadModelTable(ScrapeFileEntity);
  readonly pricingSnapshots = new ReadModelTable(PricingSnapshotEntity);
  readonly pricingChanges = new ReadModelTable(PricingChangeEntity);
  readonly exchangeRates = new ReadModelTable(ExchangeRateEntity);
  readonly planSearch = new PlanSearchTables();
  readonly priceIndex = new PriceIndexTables();
}
