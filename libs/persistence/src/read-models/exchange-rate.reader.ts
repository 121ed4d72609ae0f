import { Injectable } from '@nestjs/common';
import type { ExchangeRate } from '#app/domain';
import { In } from 'typeorm';
import { ExchangeRateEntity } from '../entities/exchange-rate.entity.js';
import { ReadDatabase } from '../replicas/read-database.js';

/** Exchange rates by pair; served by the (base, quote, date) primary key. */
@Injectable()
export class ExchangeRateReader {
  constructor(private readonly database: ReadDatabase) {}

  /**
   * Every rate between `target` and one of `currencies`, either way round (base in
   * `currencies` and quote `target`, or base `target` and quote in `currencies`), by pair then
   * date: what an ExchangeRateBook needs to convert prices in `currencies` into `target`.
   */
  async ratesFor(target: string, currencies: readonly string[]): Promise<ExchangeRate[]> {
    if (currencies.length === 0) return [];
    const rows = await this.database.repository(ExchangeRateEntity, (rates) =>
      rates.find({
        where: [
          { base: In(currencies), quote: target },
          { base: target, quote: In(currencies) },
        ],
        order: { base: 'ASC', quote: 'ASC', date: 'ASC' },
      }),
    );
    return rows.map(({ date, base, quote, rate }) => ({ date, base, quote, rate }));
  }
}
