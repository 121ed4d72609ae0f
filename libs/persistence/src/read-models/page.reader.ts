import { Injectable } from '@nestjs/common';
import { DataSource, Repository } from 'typeorm';
import { PricingPageEntity } from '../entities/pricing-page.entity.js';

@Injectable()
export class PageReader {
  private readonly pages: Repository<PricingPageEntity>;

  constructor(dataSource: DataSource) {
    this.pages = dataSource.getRepository(PricingPageEntity);
  }

  findByCompositeSlug(compositeSlug: string): Promise<PricingPageEntity | null> {
    return this.pages.findOneBy({ compositeSlug });
  }

  /** The company's pages, primary (empty sub-slug) first. */
  listByCompany(companySlug: string): Promise<PricingPageEntity[]> {
    return this.pages.find({ where: { companySlug }, order: { pageSlug: 'ASC' } });
  }
}
