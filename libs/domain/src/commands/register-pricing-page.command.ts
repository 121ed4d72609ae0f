import type { PageRecord } from '../records.js';
import type { CommandOrigin } from './command-origin.js';

export class RegisterPricingPage {
  constructor(
    readonly record: PageRecord,
    readonly origin: CommandOrigin,
  ) {}
}
