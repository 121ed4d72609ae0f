import { Injectable } from '@nestjs/common';
import type { PricingDocument } from '#app/domain';
import { Between, DataSource, LessThanOrEqual, Repository, type SelectQueryBuilder } from 'typeorm';
import { PricingSnapshotEntity } from '../entities/pricing-snapshot.entity.js';
import type { ExtractionPosition } from './pricing-change.reader.js';

/** Extractions an export reads at a time: a few megabytes of documents at most. */
const EXPORT_CHUNK = 200;

interface PositionRow {
  transaction_id: string | number;
  seq: string | number;
}

const positionOf = (row: PositionRow): ExtractionPosition => ({
  transactionId: String(row.transaction_id),
  seq: String(row.seq),
});

/**
 * Pricing documents by page and version, served by the unique (page_id, version) index; and in
 * the change feed's order, by the unique index on their event's position. The pricing-snapshots
 * projector writes rows in that order inside the transaction that moves its checkpoint, so the
 * rows any reader sees are every row up to some position (as in PricingChangeReader).
 */
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

  /** Every version with an extraction, oldest first. */
  async versions(pageId: string): Promise<string[]> {
    const rows = await this.snapshots.find({
      select: { version: true },
      where: { pageId },
      order: { version: 'ASC' },
    });
    return rows.map((row) => row.version);
  }

  /**
   * The position of the last extraction an export of at most `limit` (all when undefined)
   * extractions after `after` holds; null when there is none after it.
   */
  async lastOfExport(
    after: ExtractionPosition,
    limit?: number,
  ): Promise<ExtractionPosition | null> {
    const positions = () =>
      this.afterPosition(after)
        .select('snapshot.eventTransactionId', 'transaction_id')
        .addSelect('snapshot.eventSeq', 'seq');
    // The limit-th one, an index range of `limit` entries; past the end, the last there is.
    const row =
      (limit === undefined
        ? undefined
        : await this.inFeedOrder(positions())
            .offset(limit - 1)
            .limit(1)
            .getRawOne<PositionRow>()) ??
      (await positions()
        .orderBy('snapshot.eventTransactionId', 'DESC')
        .addOrderBy('snapshot.eventSeq', 'DESC')
        .limit(1)
        .getRawOne<PositionRow>());
    return row ? positionOf(row) : null;
  }

  /** How many extractions lie after `after`, up to `through` included. */
  countExport(after: ExtractionPosition, through: ExtractionPosition): Promise<number> {
    return this.afterPosition(after).andWhere(THROUGH, throughParameters(through)).getCount();
  }

  /**
   * The documents of the extractions after `after`, up to `through` included, in feed order,
   * read EXPORT_CHUNK at a time by their position: however many there are, only one chunk is
   * held. The range is settled (rows appear in position order), so chunks read apart in time
   * still make one consistent export.
   */
  async *exportDocuments(
    after: ExtractionPosition,
    through: ExtractionPosition,
  ): AsyncGenerator<PricingDocument[]> {
    for (let from = after; ;) {
      const rows = await this.inFeedOrder(
        this.afterPosition(from)
          .andWhere(THROUGH, throughParameters(through))
          .select('snapshot.eventTransactionId', 'transaction_id')
          .addSelect('snapshot.eventSeq', 'seq')
          .addSelect('snapshot.document', 'document'),
      )
        .limit(EXPORT_CHUNK)
        .getRawMany<PositionRow & { document: string }>();
      if (rows.length > 0) yield rows.map((row) => JSON.parse(row.document) as PricingDocument);
      if (rows.length < EXPORT_CHUNK) return;
      from = positionOf(rows.at(-1)!);
    }
  }

  private afterPosition(after: ExtractionPosition): SelectQueryBuilder<PricingSnapshotEntity> {
    return this.snapshots
      .createQueryBuilder('snapshot')
      .where('(snapshot.eventTransactionId, snapshot.eventSeq) > (:transactionId, :seq)', after);
  }

  private inFeedOrder(
    query: SelectQueryBuilder<PricingSnapshotEntity>,
  ): SelectQueryBuilder<PricingSnapshotEntity> {
    return query
      .orderBy('snapshot.eventTransactionId', 'ASC')
      .addOrderBy('snapshot.eventSeq', 'ASC');
  }
}

const THROUGH =
  '(snapshot.eventTransactionId, snapshot.eventSeq) <= (:throughTransactionId, :throughSeq)';

const throughParameters = (through: ExtractionPosition) => ({
  throughTransactionId: through.transactionId,
  throughSeq: through.seq,
});
