import { Injectable } from '@nestjs/common';
import { Between, DataSource, In, LessThanOrEqual, Repository } from 'typeorm';
import { PricingSnapshotEntity } from '../entities/pricing-snapshot.entity.js';

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
