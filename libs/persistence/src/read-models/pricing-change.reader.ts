import { Injectable } from '@nestjs/common';
import { isPriceChange, type Significance } from '#app/domain';
import type { Repository } from 'typeorm';
import { PricingChangeEntity } from '../entities/pricing-change.entity.js';
import { ReadDatabase } from '../replicas/read-database.js';
import type { LogPosition } from '../events/event-store.js';
import type { Transaction } from '../transaction-runner.js';

/** A place in the change feed: the extraction event's projection position and change index. */
export interface FeedPosition {
  transactionId: string;
  seq: string;
  index: number;
}

/** Where an extraction stands in the change feed: its event's position (transaction id, seq). */
export type ExtractionPosition = Omit<FeedPosition, 'index'>;

export interface PricingChangeQuery {
  /** Changes strictly after this position. */
  after: FeedPosition;
  limit: number;
  companySlug?: string;
  eventType?: string;
  /** Changes of this significance or more. */
  minSignificance?: Significance;
}

/**
 * The condition of each minimum above the least, written exactly as the partial index that
 * serves it (migration 1764900000000), so that both databases see that the index applies.
 */
const AT_LEAST: Record<Exclude<Significance, 'minor'>, string> = {
  moderate: "change.significance IN ('moderate', 'major')",
  major: "change.significance = 'major'",
};

/**
 * The change feed, in feed position order. Only the pricing-changes projector writes it, in
 * increasing position and inside the transaction that moves its checkpoint, and its
 * transactions run one after another (checkpoint lock): so the rows any reader sees are always
 * every row up to some position, and a row can never appear behind a position already read.
 */
@Injectable()
export class PricingChangeReader {
  constructor(private readonly database: ReadDatabase) {}

  page({
    after,
    limit,
    companySlug,
    eventType,
    minSignificance,
  }: PricingChangeQuery): Promise<PricingChangeEntity[]> {
    return this.changes((changes) => {
      const query = changes
        .createQueryBuilder('change')
        .where(
          '(change.eventTransactionId, change.eventSeq, change.changeIndex) > (:transactionId, :seq, :index)',
          after,
        )
        .orderBy('change.eventTransactionId', 'ASC')
        .addOrderBy('change.eventSeq', 'ASC')
        .addOrderBy('change.changeIndex', 'ASC')
        .limit(limit);
      if (companySlug !== undefined)
        query.andWhere('change.companySlug = :companySlug', { companySlug });
      if (eventType !== undefined) query.andWhere('change.eventType = :eventType', { eventType });
      // Every change is minor or more: that minimum filters nothing.
      if (minSignificance !== undefined && minSignificance !== 'minor')
        query.andWhere(AT_LEAST[minSignificance]);
      return query.getMany();
    });
  }

  /**
   * The position of the feed's last extraction; the start of the log when it is empty. Read
   * inside `tx` when given.
   */
  async lastExtraction(tx?: Transaction): Promise<LogPosition> {
    const lastOf = (changes: Repository<PricingChangeEntity>) =>
      changes.findOne({ where: {}, order: { eventTransactionId: 'DESC', eventSeq: 'DESC' } });
    const last = tx
      ? await lastOf(tx.manager.getRepository(PricingChangeEntity))
      : await this.changes(lastOf);
    return last
      ? { transactionId: String(last.eventTransactionId), seq: Number(last.eventSeq) }
      : { transactionId: '0', seq: 0 };
  }

  /**
   * The changes of the next extractions after `after` (an extraction's position: transaction
   * id, seq), at most `limit` extractions, each whole, in feed order.
   */
  async extractionsAfter(after: LogPosition, limit: number): Promise<PricingChangeEntity[]> {
    const afterExtraction = '(change.eventTransactionId, change.eventSeq) > (:transactionId, :seq)';
    const positions = { transactionId: after.transactionId, seq: String(after.seq) };
    return this.changes(async (changes) => {
      const last = await changes
        .createQueryBuilder('change')
        .select('change.eventTransactionId', 'transaction_id')
        .addSelect('change.eventSeq', 'seq')
        .distinct(true)
        .where(afterExtraction, positions)
        .orderBy('change.eventTransactionId', 'ASC')
        .addOrderBy('change.eventSeq', 'ASC')
        .offset(limit - 1)
        .limit(1)
        .getRawOne<{ transaction_id: string | number; seq: string | number }>();
      const query = changes
        .createQueryBuilder('change')
        .where(afterExtraction, positions)
        .orderBy('change.eventTransactionId', 'ASC')
        .addOrderBy('change.eventSeq', 'ASC')
        .addOrderBy('change.changeIndex', 'ASC');
      if (last) {
        query.andWhere(
          '(change.eventTransactionId, change.eventSeq) <= (:lastTransactionId, :lastSeq)',
          { lastTransactionId: String(last.transaction_id), lastSeq: String(last.seq) },
        );
      }
      return query.getMany();
    });
  }

  private changes<T>(read: (changes: Repository<PricingChangeEntity>) => Promise<T>): Promise<T> {
    return this.database.repository(PricingChangeEntity, read);
  }
}

/** A change as the feed and webhook deliveries show it. */
export function pricingChangeView(row: PricingChangeEntity) {
  return {
    slug: row.compositeSlug,
    company_slug: row.companySlug,
    page_subslug: row.pageSlug,
    from_version: row.fromVersion,
    to_version: row.toVersion,
    event_type: row.eventType,
    plan: row.plan,
    charge:
      row.chargeBilling === null
        ? null
        : { billing: row.chargeBilling, display_name: row.chargeDisplayName },
    discount: row.discount,
    field: row.field,
    old_value: JSON.parse(row.oldValue) as unknown,
    new_value: JSON.parse(row.newValue) as unknown,
    ...(isPriceChange(row.eventType)
      ? {
          old_monthly_equivalent: row.oldMonthlyEquivalent,
          new_monthly_equivalent: row.newMonthlyEquivalent,
          change_percent: row.changePercent,
        }
      : {}),
    significance: row.significance,
    recorded_at: row.recordedAt,
  };
}
