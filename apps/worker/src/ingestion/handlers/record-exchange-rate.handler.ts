import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  ExchangeRateRecorded,
  RecordExchangeRate,
  streamIds,
  type IngestOutcome,
} from '#app/domain';
import { RecordAppender } from '../record-appender.js';
import { duplicateOrConflict, firstEventOf } from '../record-rules.js';

/** A rate depends on no other record; like a scrape, it never changes once recorded. */
@CommandHandler(RecordExchangeRate)
export class RecordExchangeRateHandler implements ICommandHandler<
  RecordExchangeRate,
  IngestOutcome
> {
  constructor(private readonly appender: RecordAppender) {}

  execute({ record, origin }: RecordExchangeRate): Promise<IngestOutcome> {
    const { date, base, quote, rate } = record;
    const streamId = streamIds.exchangeRate(date, base, quote);
    return this.appender.decideAndAppend(async (streams) => {
      const [existing] = await streams.readStream(streamId);
      if (existing) return duplicateOrConflict(record, existing);
      const event = new ExchangeRateRecorded(streamId, { date, base, quote, rate });
      return firstEventOf(record, origin, event);
    });
  }
}
