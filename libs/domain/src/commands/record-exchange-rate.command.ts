import type { ExchangeRateRecord } from '../records.js';
import type { CommandOrigin } from './command-origin.js';

export class RecordExchangeRate {
  constructor(
    readonly record: ExchangeRateRecord,
    readonly origin: CommandOrigin,
  ) {}
}
