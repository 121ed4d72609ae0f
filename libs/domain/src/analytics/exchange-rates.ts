/** One `exchange_rate` record: 1 `base` is worth `rate` `quote` on `date` (YYYYMMDD). */
export interface ExchangeRate {
  date: string;
  base: string;
  quote: string;
  rate: number;
}

/** How an amount was converted: the multiplier applied, and the date of the rate used. */
interface RateApplied {
  rate: number;
  /** Null when nothing was converted (the amount was already in the currency asked for). */
  rate_date: string | null;
}

/**
 * The exchange rates a request may use, looked up by pair and date. A rate is the one of the
 * latest date on or before the price's date among the records base=from, quote=to (multiply),
 * or, only when there is none, among base=to, quote=from (divide). Never through a third
 * currency, never a guess: no record, no conversion.
 */
export class ExchangeRateBook {
  /** "BASE QUOTE" → that pair's records, oldest first. */
  private readonly pairs = new Map<string, ExchangeRate[]>();

  constructor(rates: Iterable<ExchangeRate>) {
    for (const rate of rates) {
      const key = `${rate.base} ${rate.quote}`;
      const list = this.pairs.get(key);
      if (list) list.push(rate);
      else this.pairs.set(key, [rate]);
    }
    for (const list of this.pairs.values()) list.sort((a, b) => a.date.localeCompare(b.date));
  }

  /** The rate from `from` into `to` for a price seen on `date`, or null when there is none. */
  rateFor(from: string, to: string, date: string): RateApplied | null {
    if (from === to) return { rate: 1, rate_date: null };
    const direct = this.latestOnOrBefore(`${from} ${to}`, date);
    if (direct) return { rate: direct.rate, rate_date: direct.date };
    const inverse = this.latestOnOrBefore(`${to} ${from}`, date);
    if (inverse) return { rate: 1 / inverse.rate, rate_date: inverse.date };
    return null;
  }

  private latestOnOrBefore(pair: string, date: string): ExchangeRate | undefined {
    const list = this.pairs.get(pair);
    if (!list) return undefined;
    // Binary search for the last record dated on or before `date`.
    let low = 0;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (list[middle]!.date <= date) low = middle + 1;
      else high = middle;
    }
    return low === 0 ? undefined : list[low - 1];
  }
}
