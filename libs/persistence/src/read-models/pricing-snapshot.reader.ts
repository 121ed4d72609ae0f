import { Injectable } from '@nestjs/common';
import { Between, DataSource, In, LessThanOrEqual, Repository } from 'typeorm';
import { CompanyEntity } from '../entities/company.entity.js';
import { PricingPageEntity } from '../entities/pricing-page.entity.js';
import { PricingSnapshotEntity } from '../entities/pricing-snapshot.entity.js';

/** Which pages' extractions to read: by their company's category, size band or slug. */
export interface PageSelection {
  categories?: readonly string[];
  employees?: readonly string[];
  companySlugs?: readonly string[];
}

/** An extraction with the composite slug of its page. */
export interface PageExtraction {
  composite_slug: string;
  company_slug: string;
  version: string;
  document: string;
}

/** Pricing documents by page and version; served by the unique (page_id, version) index. */
@Injectable()
export class PricingSnapshotReader {
  private readonly snapshots: Repository<PricingSnapshotEntity>;

  constructor(dataSource: DataSource) {
    this.snapshots = dataSource.getRepository(PricingSnapshotEntity);
  }

  find(pageId: string, version: string): Promise<PricingSnapshotEntity | null> {
    return this.snapshots.findOneBy({ pageId, version });
  }

  latest(pageId: string): Promise<PricingSnapshotEntity | null> {
    return this.snapshots.findOne({ where: { pageId }, order: { version: 'DESC' } });
  }

  /** The extraction in force on `date`: the latest of a version on or before it. */
  latestOnOrBefore(pageId: string, date: string): Promise<PricingSnapshotEntity | null> {
    return this.snapshots.findOne({
      where: { pageId, version: LessThanOrEqual(date) },
      order: { version: 'DESC' },
    });
  }

  earliestInRange(
    pageId: string,
    start: string,
    end: string,
  ): Promise<PricingSnapshotEntity | null> {
    return this.snapshots.findOne({
      where: { pageId, version: Between(start, end) },
      order: { version: 'ASC' },
    });
  }

  /** The extractions of these versions (those that exist), in no particular order. */
  ofVersions(pageId: string, versions: readonly string[]): Promise<PricingSnapshotEntity[]> {
    if (versions.length === 0) return Promise.resolve([]);
    return this.snapshots.findBy({ pageId, version: In([...versions]) });
  }

  /**
   * The extraction in force on `date` (the latest on or before it) of every selected page that
   * has one, by composite slug; each found through the (page_id, version) index.
   */
  inForceOn(date: string, selection: PageSelection): Promise<PageExtraction[]> {
    const builder = this.snapshots
      .createQueryBuilder('snapshot')
      .innerJoin(PricingPageEntity, 'page', 'page.id = snapshot.pageId')
      .innerJoin(CompanyEntity, 'company', 'company.slug = snapshot.companySlug')
      .select('page.compositeSlug', 'composite_slug')
      .addSelect('snapshot.companySlug', 'company_slug')
      .addSelect('snapshot.version', 'version')
      .addSelect('snapshot.document', 'document')
      .where(
        (query) =>
          'snapshot.version = ' +
          query
            .subQuery()
            .select('MAX(latest.version)')
            .from(PricingSnapshotEntity, 'latest')
            .where('latest.pageId = snapshot.pageId AND latest.version <= :date')
            .getQuery(),
        { date },
      )
      .orderBy('page.compositeSlug');
    if (selection.categories)
      builder.andWhere('company.category IN (:...categories)', {
        categories: selection.categories,
      });
    if (selection.employees)
      builder.andWhere('company.employees IN (:...employees)', { employees: selection.employees });
    if (selection.companySlugs)
      builder.andWhere('snapshot.companySlug IN (:...slugs)', { slugs: selection.companySlugs });
    return builder.getRawMany<PageExtraction>();
  }

  /** Every version with an extraction, oldest first. */
  async versions(pageId: string): Promise<string[]> {
    const rows = await this.snapshots.find({
      select: { version: true },
      where: { pageId },
      order: { version: 'ASC' },
    });
    return rows.map((row) => row.version);
  }
}
