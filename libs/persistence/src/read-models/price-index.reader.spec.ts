import { describe, expect, it } from 'vitest';
import { PriceIndexPage } from './price-index.reader.js';

describe('PriceIndexPage.extractions', () => {
  it('groups a line taken in any order into extractions, oldest first, each price exact', () => {
    // SQL does not promise the aggregate's order: versions interleaved, as it might give them.
    const page = new PriceIndexPage(
      'p',
      4,
      '20240301,,USD,10.833333333333334;20240101,20240301,EUR,9;20240301,,EUR,12;20240101,20240301,USD,8',
    );
    expect([...page.extractions()]).toEqual([
      {
        version: '20240101',
        until: '20240301',
        candidates: [
          { currency: 'EUR', monthly: 9 },
          { currency: 'USD', monthly: 8 },
        ],
      },
      {
        version: '20240301',
        until: null,
        candidates: [
          { currency: 'USD', monthly: 130 / 12 },
          { currency: 'EUR', monthly: 12 },
        ],
      },
    ]);
  });
});
