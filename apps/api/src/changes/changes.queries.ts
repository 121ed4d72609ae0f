import { Injectable } from '@nestjs/common';
import type { PricingChangeType, Significance } from '#app/domain';
import {
  encodeCursor,
  PricingChangeReader,
  pricingChangeView,
  type FeedPosition,
} from '#app/persistence';

/**
 * The filters of a feed read: its position, its page size, one company, one kind of change, a
 * least significance.
 */
interface FeedRead {
  after: FeedPosition;
  limit: number;
  companySlug: string | undefined;
  eventType: PricingChangeType | undefined;
  minSignificance: Significance | undefined;
}

/** The read of the changes feed. */
@Injectable()
export class ChangesQueries {
  constructor(private readonly changes: PricingChangeReader) {}

  /** The changes after a position, oldest first, with the cursor to read on from (ChangeFeedDto). */
  async page({ after, limit, ...filters }: FeedRead) {
    // One more than asked tells whether there is more, without counting.
    const rows = await this.changes.page({ after, limit: limit + 1, ...filters });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      changes: page.map(pricingChangeView),
      next_cursor: last
        ? encodeCursor({
            transactionId: last.eventTransactionId,
            seq: last.eventSeq,
            index: last.changeIndex,
          })
        : encodeCursor(after),
      has_more: rows.length > limit,
    };
  }
}
