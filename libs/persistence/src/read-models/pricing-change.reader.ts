import { Injectable } from '@nestjs/common';
import { DataSource, Repository } from 'typeorm';
import { PricingChangeEntity } from '../entities/pricing-change.entity.js';

/** A place in the change feed: the extraction event's projection position and change index. */
export interface FeedPosition {
  transactionId: string;
  seq: string;
  index: number;
}

export interface PricingChangeQuery {
  /** Changes strictly after this position. */
  after: FeedPosition;
  limit: number;
  companySlug?: string;
  eventType?: string;
}

/**
 * The change feed, in feed position order. Only the pricing-changes projector writes it, in
 * increasing position and inside the transaction that moves its checkpoint, and its
 * transactions run one after another (checkpoint lock): so the rows any reader sees are always
 * every row up to some position, and a row can never appear behind a position already read.
 */
@Injectable()
export class PricingChangeReader {
  private readonly changes: Repository<PricingChangeEntity>;

  constructor(dataSource: DataSource) {
    this.changes = dataSource.getRepository(PricingChangeEntity);
  }

  page({
    after,
    limit,
    companySlug,
    eventType,
  }: PricingChangeQuery): Promise<PricingChangeEntity[]> {
    const query = this.changes
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
    return query.getMany();
  }
}
