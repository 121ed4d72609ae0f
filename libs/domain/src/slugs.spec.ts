import { describe, expect, it } from 'vitest';
import { COMPANY_SLUG, PAGE_SLUG, companySlugBase, compositePageSlug } from './slugs.js';

describe('companySlugBase', () => {
  it('drops the domain extension after the last dot', () => {
    expect(companySlugBase('notion.so')).toBe('notion');
    expect(companySlugBase('foo.co.uk')).toBe('foo.co');
  });

  it('keeps a slug without a dot as it is', () => {
    expect(companySlugBase('zapier')).toBe('zapier');
  });
});

describe('compositePageSlug', () => {
  it('is the company base alone for the primary (empty) page', () => {
    expect(compositePageSlug('notion.so', '')).toBe('notion');
    expect(compositePageSlug('zapier', '')).toBe('zapier');
  });

  it('joins the company base and the page sub-slug with a dot', () => {
    expect(compositePageSlug('notion.so', 'enterprise')).toBe('notion.enterprise');
    expect(compositePageSlug('foo.co.uk', 'teams')).toBe('foo.co.teams');
    expect(compositePageSlug('zapier', 'teams')).toBe('zapier.teams');
  });
});

describe('COMPANY_SLUG', () => {
  it.each(['notion.so', 'foo.co.uk', 'zapier', 'monday-com', 'a', '1password.com'])(
    'accepts %s',
    (slug) => {
      expect(COMPANY_SLUG.test(slug)).toBe(true);
    },
  );

  it.each([
    ['upper case', 'Notion.so'],
    ['a space', 'notion so'],
    ['a leading dash', '-notion.so'],
    ['a trailing dash', 'notion-.so'],
    ['an empty label', 'notion..so'],
    ['a trailing dot', 'notion.'],
    ['a leading dot', '.notion'],
    ['an underscore', 'my_company'],
    ['a slash', 'notion/so'],
    ['the empty string', ''],
  ])('refuses a slug with %s', (_why, slug) => {
    expect(COMPANY_SLUG.test(slug)).toBe(false);
  });
});

describe('PAGE_SLUG', () => {
  it.each(['', 'enterprise', 'team-plan', 'v2'])('accepts %j', (slug) => {
    expect(PAGE_SLUG.test(slug)).toBe(true);
  });

  it.each([
    ['upper case', 'Enterprise'],
    ['a space', 'team plan'],
    ['a leading dash', '-enterprise'],
    ['a trailing dash', 'enterprise-'],
    ['a dot (it is one label)', 'team.plan'],
    ['an underscore', 'team_plan'],
  ])('refuses a page slug with %s', (_why, slug) => {
    expect(PAGE_SLUG.test(slug)).toBe(false);
  });
});
