import { Injectable } from '@nestjs/common';
import type { PricingDocument } from '#app/domain';
import { Between, In, LessThanOrEqual, type Repository, type SelectQueryBuilder } from 'typeorm';
import { PricingPageEntity } from '../entities/pricing-page.entity.js';
import { PricingSnapshotEntity } from '../entities/pricing-snapshot.entity.js';
import { ReadDatabase } from '../replicas/read-database.js';
import { afterExtraction } from './feed-cursor.js';
import type { ExtractionPosition, FeedPosition } from './pricing-change.reader.js';

/** Which pages' extractions to read. */
export interface PageSelection {
  pageIds: readonly string[];
}

/** An extraction with the composite slug of its page. */
export interface PageExtraction {
  composite_slug: string;
  version: string;
  document: string;
}

/**
 * Extractions an export reads at a time. A chunk and the one read after it are both held for a
 * moment, parsed and priced: at 200 a 64 MB heap's API ran 54 MB live and 86 full collections
 * per export (out of memory on a loaded machine); at 50, 51 MB and 37, and no slower.
 */
const EXPORT_CHUNK = 50;

interface PositionRow {
  transaction_id: string | number;
  seq: string | number;
}

const positionOf = (row: PositionRow): ExtractionPosition => ({
  transactionId: String(row.transaction_id),
  seq: String(row.seq),
});

/** The extractions of one export, read when asked for. */
export interface PricingExport {
  /** Where the export ends in the change feed: past its last extraction, else where it began. */
  next: FeedPosition;
  /** How many extractions it holds (one count of an index range). */
  size(): Promise<number>;
  /**
   * Their documents in feed order, a chunk at a time: however many there are, only one chunk
   * is held. The range is settled (rows appear in position order), so chunks read apart in
   * time still make one consistent export.
   */
  documents(): AsyncGenerator<PricingDocument[]>;
}

/**
 * Pricing documents by page and version, served by the unique (page_id, version) index; and in
 * the change feed's order, by the unique index on their event's position. The pricing-snapshots
 * projector writes rows in that order inside the transaction that moves its checkpoint, so the
 * rows any reader sees are every row up to some position (as in PricingChangeReader).
 */
@Injectable()
export class PricingSnapshotReader {
  constructor(private readonly database: ReadDatabase) {}

  find(pageId: string, version: string): Promise<PricingSnapshotEntity | null> {
    return this.snapshots((snapshots) => snapshots.findOneBy({ pageId, version }));
  }

  latest(pageId: string): Promise<PricingSnapshotEntity | null> {
    return this.snapshots((snapshots) =>
      snapshots.findOne({ where: { pageId }, order: { version: 'DESC' } }),
    );
  }

  /** The extraction in force on `date`: the latest of a version on or before it. */
  latestOnOrBefore(pageId: string, date: string): Promise<PricingSnapshotEntity | null> {
    return this.snapshots((snapshots) =>
      snapshots.findOne({
        where: { pageId, version: LessThanOrEqual(date) },
        order: { version: 'DESC' },
      }),
    );
  }

  earliestInRange(
    pageId: string,
    start: string,
    end: string,
  ): Promise<PricingSnapshotEntity | null> {
    return this.snapshots((snapshots) =>
      snapshots.findOne({
        where: { pageId, version: Between(start, end) },
        order: { version: 'ASC' },
      }),
    );
  }

  /** The extractions of these versions (those that exist), in no particular order. */
  ofVersions(pageId: string, versions: readonly string[]): Promise<PricingSnapshotEntity[]> {
    if (versions.length === 0) return Promise.resolve([]);
    return this.snapshots((snapshots) => snapshots.findBy({ pageId, version: In([...versions]) }));
  }

  /**
   * The extraction in force on `date` (the latest on or before it) of every selected page that
   * has one, by composite slug; each found through the (page_id, version) index.
   */
  inForceOn(date: string, selection: PageSelection): Promise<PageExtraction[]> {
    return this.snapshots((snapshots) => inForceOn(snapshots, date, selection));
  }

  /** Every version with an extraction, oldest first. */
  async versions(pageId: string): Promise<string[]> {
    const rows = await this.snapshots((snapshots) =>
      snapshots.find({ select: { version: true }, where: { pageId }, order: { version: 'ASC' } }),
    );
    return rows.map((row) => row.version);
  }

  /**
   * The extractions after `after` (the ones at its own position count as read), oldest first
   * in the change feed's order, at most `limit` (all there are now when undefined).
   */
  async openExport(after: FeedPosition, limit?: number): Promise<PricingExport> {
    const from = { transactionId: after.transactionId, seq: after.seq };
    const last = await this.snapshots((snapshots) => lastOfExport(snapshots, from, limit));
    if (!last) {
      return {
        next: after,
        size: () => Promise.resolve(0),
        documents: async function* () {},
      };
    }
    return {
      next: afterExtraction(last),
      size: () => this.snapshots((snapshots) => range(snapshots, from, last).getCount()),
      documents: () => this.documentsBetween(from, last),
    };
  }

  private async *documentsBetween(
    after: ExtractionPosition,
    through: ExtractionPosition,
  ): AsyncGenerator<PricingDocument[]> {
    for (let from = after; ;) {
      const rows = await this.snapshots((snapshots) =>
        inFeedOrder(
          range(snapshots, from, through)
            .select('snapshot.eventTransactionId', 'transaction_id')
            .addSelect('snapshot.eventSeq', 'seq')
            .addSelect('snapshot.document', 'document'),
        )
          .limit(EXPORT_CHUNK)
          .getRawMany<PositionRow & { document: string }>(),
      );
      if (rows.length > 0) yield rows.map((row) => JSON.parse(row.document) as PricingDocument);
      if (rows.length < EXPORT_CHUNK) return;
      from = positionOf(rows.at(-1)!);
    }
  }

  private snapshots<T>(
    read: (snapshots: Repository<PricingSnapshotEntity>) => Promise<T>,
  ): Promise<T> {
    return this.database.repository(PricingSnapshotEntity, read);
  }
}

function inForceOn(
  snapshots: Repository<PricingSnapshotEntity>,
  date: string,
  selection: PageSelection,
): Promise<PageExtraction[]> {
  return snapshots
    .createQueryBuilder('snapshot')
    .innerJoin(PricingPageEntity, 'page', 'page.id = snapshot.pageId')
    .select('page.compositeSlug', 'composite_slug')
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
    .andWhere('snapshot.pageId IN (:...pageIds)', { pageIds: selection.pageIds })
    .orderBy('page.compositeSlug')
    .getRawMany<PageExtraction>();
}

/** The position of the limit-th extraction after `after` (or the last there is); null: none. */
async function lastOfExport(
  snapshots: Repository<PricingSnapshotEntity>,
  after: ExtractionPosition,
  limit?: number,
): Promise<ExtractionPosition | null> {
  const positions = () =>
    afterPosition(snapshots, after)
      .select('snapshot.eventTransactionId', 'transaction_id')
      .addSelect('snapshot.eventSeq', 'seq');
  // The limit-th: an index range of `limit` entries.
  const row =
    (limit === undefined
      ? undefined
      : await inFeedOrder(positions())
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

/** The extractions after `after`, up to `through` included. */
function range(
  snapshots: Repository<PricingSnapshotEntity>,
  after: ExtractionPosition,
  through: ExtractionPosition,
): SelectQueryBuilder<PricingSnapshotEntity> {
  return afterPosition(snapshots, after).andWhere(
    '(snapshot.eventTransactionId, snapshot.eventSeq) <= (:throughTransactionId, :throughSeq)',
    { throughTransactionId: through.transactionId, throughSeq: through.seq },
  );
}

function afterPosition(
  snapshots: Repository<PricingSnapshotEntity>,
  after: ExtractionPosition,
): SelectQueryBuilder<PricingSnapshotEntity> {
  return snapshots
    .createQueryBuilder('snapshot')
    .where('(snapshot.eventTransactionId, snapshot.eventSeq) > (:transactionId, :seq)', after);
}

function inFeedOrder(
  query: SelectQueryBuilder<PricingSnapshotEntity>,
): SelectQueryBuilder<PricingSnapshotEntity> {
  return query.orderBy('snapshot.eventTransactionId', 'ASC').addOrderBy('snapshot.eventSeq', 'ASC');
}
