import { v5 as uuidv5, validate, version } from 'uuid';
import { describe, expect, it } from 'vitest';
import { deterministicIds } from './ids.js';

const expectUuidV5 = (id: string) => {
  expect(validate(id)).toBe(true);
  expect(version(id)).toBe(5);
  expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
};

describe('deterministicIds', () => {
  const pageId = deterministicIds.page('notion.so', 'enterprise');

  it('gives version-5 UUIDs for every kind of id', () => {
    expectUuidV5(pageId);
    expectUuidV5(deterministicIds.scrape(pageId, '20250115', 'scraper_1'));
    expectUuidV5(deterministicIds.pricingSnapshot(pageId, '20250115'));
    for (const kind of ['plan', 'charge', 'metric', 'discount'] as const) {
      expectUuidV5(deterministicIds.child(pageId, kind, 0));
    }
  });

  it('gives the same id for the same input on every call', () => {
    expect(deterministicIds.page('notion.so', 'enterprise')).toBe(pageId);
    expect(deterministicIds.scrape(pageId, '20250115', 'scraper_1')).toBe(
      deterministicIds.scrape(pageId, '20250115', 'scraper_1'),
    );
    expect(deterministicIds.pricingSnapshot(pageId, '20250115')).toBe(
      deterministicIds.pricingSnapshot(pageId, '20250115'),
    );
    expect(deterministicIds.child(pageId, 'plan', 3)).toBe(
      deterministicIds.child(pageId, 'plan', 3),
    );
  });

  it('derives ids from a fixed namespace and the natural key', () => {
    // A changed namespace or key format would change every id clients have ever seen.
    const namespace = '5b0c7a55-3f0e-4c2a-9d53-6f1d2b7c9e41';
    expect(pageId).toBe(uuidv5('page:notion.so/enterprise', namespace));
    expect(deterministicIds.child(pageId, 'plan', 2)).toBe(uuidv5(`plan:${pageId}/2`, namespace));
    // Names beyond ASCII hash their UTF-8 bytes, as uuid's v5 does.
    expect(deterministicIds.page('zürich.io', 'équipe-漢')).toBe(
      uuidv5('page:zürich.io/équipe-漢', namespace),
    );
  });

  it('gives different pages different ids', () => {
    const ids = new Set([
      pageId,
      deterministicIds.page('notion.so', ''),
      deterministicIds.page('notion.com', 'enterprise'),
      deterministicIds.page('notion.so', 'teams'),
    ]);
    expect(ids.size).toBe(4);
  });

  it('gives different scrapes different ids', () => {
    const otherPage = deterministicIds.page('notion.so', '');
    const ids = new Set([
      deterministicIds.scrape(pageId, '20250115', 'scraper_1'),
      deterministicIds.scrape(pageId, '20250115', 'scraper_2'),
      deterministicIds.scrape(pageId, '20250116', 'scraper_1'),
      deterministicIds.scrape(otherPage, '20250115', 'scraper_1'),
    ]);
    expect(ids.size).toBe(4);
  });

  it('gives different snapshots different ids, and none equal to a scrape id', () => {
    const one = deterministicIds.pricingSnapshot(pageId, '20250115');
    expect(deterministicIds.pricingSnapshot(pageId, '20250116')).not.toBe(one);
    expect(
      deterministicIds.pricingSnapshot(deterministicIds.page('x.io', ''), '20250115'),
    ).not.toBe(one);
    expect(deterministicIds.scrape(pageId, '20250115', '')).not.toBe(one);
  });

  it('gives children different ids by index, kind and parent', () => {
    const parent = deterministicIds.pricingSnapshot(pageId, '20250115');
    const other = deterministicIds.pricingSnapshot(pageId, '20250116');
    const ids = new Set([
      deterministicIds.child(parent, 'plan', 0),
      deterministicIds.child(parent, 'plan', 1),
      deterministicIds.child(parent, 'plan', 10),
      deterministicIds.child(parent, 'charge', 0),
      deterministicIds.child(parent, 'metric', 0),
      deterministicIds.child(parent, 'discount', 0),
      deterministicIds.child(other, 'plan', 0),
    ]);
    expect(ids.size).toBe(7);
  });
});
