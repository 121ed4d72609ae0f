import type { PricingRecord } from '../records.js';
import type { CommandOrigin } from './command-origin.js';

export class ExtractPricing {
  constructor(
    readonly record: PricingRecord,
    readonly origin: CommandOrigin,
  ) {}
}
