import { Injectable } from '@nestjs/common';
import { PricingPageEntity } from '../entities/pricing-page.entity.js';
import { ReadDatabase } from '../replicas/read-database.js';

@Injectable()
export class PageReader {
  constructor(private readonly database: ReadDatabase) {}

  findByCompositeSlug(compositeSlug: string): Promise<PricingPageEntity | null> {
    return this.database.repository(PricingPageEntity, (pages) =>
      pages.findOneBy({ compositeSlug }),
    );
  }

  /** The company's pages, primary (empty sub-slug) first. */
  listByCompany(companySlug: string): Promise<PricingPageEntity[]> {
    return this.database.repository(PricingPageEntity, (pages) =>
      pages.find({ where: { companySlug }, order: { pageSlug: 'ASC' } }),
    );
  }
}
