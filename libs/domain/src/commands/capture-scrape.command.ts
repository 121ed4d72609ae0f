import type { ScrapeRecord } from '../records.js';
import type { CommandOrigin } from './command-origin.js';

export class CaptureScrape {
  constructor(
    readonly record: ScrapeRecord,
    readonly origin: CommandOrigin,
  ) {}
}
