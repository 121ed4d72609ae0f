import type { RecordFields } from '../records.js';
import type { DomainEvent } from './domain-event.js';

/** An exchange_rate record's fields: 1 `base` is worth `rate` `quote` on `date`. */
type ExchangeRateRecordedPayload = RecordFields<'exchange_rate'>;

export class ExchangeRateRecorded implements DomainEvent<ExchangeRateRecordedPayload> {
  static readonly TYPE = 'exchange-rate.recorded.v1';
  static readonly SCHEMA_VERSION = 1;
  readonly type = ExchangeRateRecorded.TYPE;
  readonly schemaVersion = ExchangeRateRecorded.SCHEMA_VERSION;
  constructor(
    readonly streamId: string,
    readonly payload: ExchangeRateRecordedPayload,
  ) {}
}
