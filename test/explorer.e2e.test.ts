import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Request } from 'playwright-core';
import type { components } from '#app/client';
import type { PricingRecord } from '#app/contracts';
import { cspViolations, launchBrowser } from './support/browser.js';
import { ingestAndProject } from './support/catalogue-fixture.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/*
 * GET /explorer in headless Chromium: a person with a key searches, opens a company, reads the
 * price timeline, compares two versions and opens a version's scrape files; all through the
 * metered API of the same origin.
 */

const environment = testEnvironment();
/** One folder per database, so a CI run keeps the screenshots of both. */
const ARTIFACTS = `test-artifacts/explorer/${environment.dialect}`;
const SCREENSHOT_HOST = 'https://cdn.example.com';
/** A second scraper's host, for the screenshots of 20250313 only (no other test opens it). */
const OTHER_SCREENSHOT_HOST = 'https://shots.elsewhere.example';
/** EXPLORER_IMAGE_SOURCES of the second API process: the first host, not the second. */
const RESTRICTED_IMAGE_SOURCES = [SCREENSHOT_HOST, 'https://*.cdn.example'];
/** A 1x1 PNG, what the routed screenshot host serves (the tests have no network). */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

type Plan = PricingRecord['plans'][number];

/**
 * Scrape files' URLs that must never become a link or an image source. Ingest refuses them, so
 * they reach the page in a crafted answer; the URL parser drops the tab of the third.
 */
const HOSTILE_URLS = {
  screenshot_url: `data:image/png;base64,${TINY_PNG.toString('base64')}`,
  markdown_url: 'javascript:alert(1)',
  html_url: 'java\tscript:alert(document.domain)',
  ocr_url: 'data:text/html,<script>alert(1)</script>',
};

const plan = (
  internal_name: string,
  display_name: string,
  price: number | null,
  currency = 'USD',
): Plan => ({
  display_name,
  internal_name,
  add_on: false,
  charges: [
    {
      billing: price === null ? 'freemium' : 'monthly_recurring_billed_monthly',
      currency,
      price,
      charge_type: 'flat',
      pricing_metric: null,
      display_name: `${display_name} monthly`,
    },
  ],
  discounts: [],
});

/**
 * Four extractions; 20250311 and 20250313 fall between the same two Mondays, so a weekly series
 * shows only the second and the explorer fetches the first on its own. Free is in January only, Team from March.
 */
const VERSIONS = ['20250105', '20250311', '20250313', '20250420'];
const PLANS: Record<string, Plan[]> = {
  '20250105': [plan('free', 'Free', null), plan('pro', 'Pro', 10)],
  '20250311': [plan('pro', 'Pro', 12), plan('team', 'Team', 20)],
  '20250313': [plan('pro', 'Pro', 12), plan('team', 'Team', 25)],
  '20250420': [plan('pro', 'Pro', 15), plan('team', 'Team', 25)],
};

/**
 * Three more companies to set side by side with Lumen Notes (Lumberyard has no pricing page):
 * one priced in euros, one in pounds (no rate into dollars), one first extracted in 2026.
 */
const COMPARED: { slug: string; name: string; version: string; plans: Plan[] }[] = [
  {
    slug: 'lumo.io',
    name: 'Lumo Mail',
    version: '20250301',
    plans: [
      plan('free', 'Free', null, 'EUR'),
      plan('plus', 'Plus', 8, 'EUR'),
      plan('business', 'Business', 20, 'EUR'),
    ],
  },
  {
    slug: 'lumiere.io',
    name: 'Lumiere CRM',
    version: '20250201',
    plans: [plan('starter', 'Starter', 9, 'GBP')],
  },
  {
    slug: 'luminary.io',
    name: 'Luminary Ads',
    version: '20260101',
    plans: [plan('ads', 'Ads', 30)],
  },
];

let api: TestApp;
let origin: string;
let key: string;
let browser: Browser;

beforeAll(async () => {
  api = await startTestApp(environment.config());
  origin = new URL(api.baseUrl).origin;
  await ingestAndProject(api, [
    records.company('lumen.io', { name: 'Lumen Notes' }),
    records.company('lumberyard.io', { name: 'Lumberyard' }),
    records.page('lumen.io'),
    ...VERSIONS.map((version) =>
      records.scrape('lumen.io', '', version, {
        screenshot_url: `${SCREENSHOT_HOST}/lumen.io/${version}/page.png`,
      }),
    ),
    records.scrape('lumen.io', '', '20250313', {
      scraper: 'scraper_2',
      screenshot_url: `${OTHER_SCREENSHOT_HOST}/lumen.io/20250313/page.png`,
    }),
    ...VERSIONS.map((version) =>
      records.pricing('lumen.io', '', version, 0, { plans: PLANS[version] }),
    ),
    ...COMPARED.flatMap(({ slug, name, version, plans }) => [
      records.company(slug, { name }),
      records.page(slug),
      records.scrape(slug, '', version),
      records.pricing(slug, '', version, 0, { plans }),
    ]),
    records.exchangeRate('20250101', { base: 'USD', quote: 'EUR', rate: 0.5 }),
  ]);
  key = await api.createKey(['read'], 'pro');
  browser = await launchBrowser();
  mkdirSync(ARTIFACTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await api?.close();
  await environment.cleanup();
});

/**
 * A fresh tab on the explorer of `at` (the first API process by default) that records what it
 * asks for, what it logs, and which screenshots the routed hosts served.
 */
async function explorerTab(width = 1280, at = origin) {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const requests: Request[] = [];
  const consoleErrors: string[] = [];
  const screenshotsServed: string[] = [];
  const violations = cspViolations(page);
  page.on('request', (request) => requests.push(request));
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  for (const host of [SCREENSHOT_HOST, OTHER_SCREENSHOT_HOST]) {
    await page.route(`${host}/**`, (route) => {
      screenshotsServed.push(route.request().url());
      return route.fulfill({ status: 200, contentType: 'image/png', body: TINY_PNG });
    });
  }
  await page.goto(`${at}/explorer`);
  return { page, requests, consoleErrors, violations, screenshotsServed };
}

async function useKey(page: Page, apiKey: string): Promise<void> {
  const field = page.getByLabel(/^API key/);
  // A password field: the key is not shown on screen.
  await expect(field.getAttribute('type')).resolves.toBe('password');
  await field.fill(apiKey);
  await page.getByRole('button', { name: 'Use key' }).click();
}

async function openLumen(page: Page): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search companies' }).fill('lum');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByRole('button', { name: 'Lumen Notes (lumen.io)' }).click();
  await page.getByRole('img', { name: /Lowest monthly equivalent per plan of lumen/ }).waitFor();
  await page.locator('#chart-table tbody tr').first().waitFor({ state: 'attached' });
}

/**
 * An expression evaluated in the page. Source text, not a function: the tests' TypeScript has
 * no DOM library (adding it would change the Node types of every test file).
 */
function inPage<T>(page: Page, expression: string): Promise<T> {
  return page.evaluate<T>(expression);
}

/** The chart's table: plan → value per version ('—' where the plan is absent). */
async function chartTable(page: Page): Promise<Record<string, string[]>> {
  const plans = (await page.locator('#chart-table thead th').allTextContents()).slice(1);
  const rows = await page.locator('#chart-table tbody tr').all();
  const cells = await Promise.all(rows.map((row) => row.locator('td').allTextContents()));
  return Object.fromEntries(plans.map((name, column) => [name, cells.map((row) => row[column]!)]));
}

/** What the page's Chart.js chart holds, read through Chart.js itself. */
const CHART = "Chart.getChart(document.getElementById('chart'))";

/** What identifies a control in the Tab order: a field's id, or a button's or link's text. */
const CONTROL_NAME = `(control) => control.matches('input, select')
  ? control.id
  : control.tagName + ' ' + control.textContent.trim().slice(0, 60)`;

/**
 * Tab from the top through the whole page: the controls shown, in document order, and those Tab
 * reached, one press each.
 */
async function tabThrough(page: Page): Promise<{ controls: string[]; reached: string[] }> {
  const controls = await inPage<string[]>(
    page,
    `[...document.querySelectorAll('input, select, button, a[href], summary')]
      .filter((control) => control.offsetParent !== null)
      .map(${CONTROL_NAME})`,
  );
  // Clicking the heading moves the point where sequential focus navigation starts to the top.
  await page.locator('h1').click();
  const reached: string[] = [];
  for (let step = 0; step < controls.length; step++) {
    await page.keyboard.press('Tab');
    reached.push(await inPage<string>(page, `(${CONTROL_NAME})(document.activeElement)`));
  }
  return { controls, reached };
}

/** The sources of a directive of a Content-Security-Policy header, in their order. */
function directiveSources(policy: string, directive: string): string[] | undefined {
  const [, ...sources] =
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .find(([name]) => name === directive) ?? [];
  return sources.length > 0 ? sources : undefined;
}

/** The scrape files' screenshots shown, once each has loaded or failed: its URL and width. */
async function settledScreenshots(page: Page): Promise<{ src: string; width: number }[]> {
  await page.waitForFunction(
    "[...document.querySelectorAll('#files img')].every((image) => image.complete)",
  );
  return inPage(
    page,
    "[...document.querySelectorAll('#files img')].map((image) => ({ src: image.src, width: image.naturalWidth }))",
  );
}

async function hasNoHorizontalScroll(page: Page): Promise<boolean> {
  return inPage(
    page,
    'document.documentElement.scrollWidth <= document.documentElement.clientWidth',
  );
}

describe('the explorer at /explorer', () => {
  it('is served by the service itself, public and uncounted, with its own policy', async () => {
    const response = await fetch(`${origin}/explorer`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.has('x-ratelimit-limit')).toBe(false);
    const policy = response.headers.get('content-security-policy') ?? '';
    for (const directive of ['script-src', 'style-src', 'connect-src']) {
      expect(directiveSources(policy, directive)).toEqual(["'self'"]);
    }
    // Without EXPLORER_IMAGE_SOURCES, screenshots may come from any https host.
    expect(directiveSources(policy, 'img-src')).toEqual(["'self'", 'https:']);
    const html = await response.text();
    for (const asset of html.matchAll(/(?:src|href)="([^"]+)"/g)) {
      expect(asset[1]).toMatch(/^\/explorer\/assets\//);
      const served = await fetch(`${origin}${asset[1]}`);
      expect(served.status, asset[1]).toBe(200);
      expect(served.headers.get('content-security-policy')).toBe(policy);
      await served.arrayBuffer();
    }
    const openapi = await (await api.request('/api/openapi.json')).text();
    expect(openapi).not.toContain('/explorer');
  });

  it('searches, charts, compares and opens files with the key in a header only', async () => {
    const { page, requests, consoleErrors, violations } = await explorerTab(1280);
    const apiResponses: { url: string; credits: string | null }[] = [];
    page.on('response', (response) => {
      if (response.url().startsWith(`${origin}/v1/api/`)) {
        apiResponses.push({
          url: response.url(),
          credits: response.headers()['x-credits-remaining'] ?? null,
        });
      }
    });
    await useKey(page, key);
    await openLumen(page);

    // One point per version per plan, the plan's lowest monthly equivalent.
    expect(await chartTable(page)).toEqual({
      Free: ['0', '—', '—', '—'],
      Pro: ['10', '12', '12', '15'],
      Team: ['—', '20', '25', '25'],
    });
    const points = await inPage(
      page,
      `${CHART}.data.datasets.map((set) => set.data.filter((value) => value !== null).length)`,
    );
    expect(points).toEqual([1, 4, 3]);
    // The cheapest calls: the free version list, one series, and one pricing document for the
    // version the weekly series cannot show (20250311, followed by 20250313 in its week).
    const pricingCalls = apiResponses
      .map((response) => new URL(response.url))
      .filter((url) => url.pathname.startsWith('/v1/api/pricing/'))
      .map((url) => `${url.pathname}${url.search}`);
    expect(pricingCalls).toEqual([
      '/v1/api/pricing/lumen/versions',
      expect.stringMatching(/^\/v1\/api\/pricing\/lumen\/series\?step=week&from=20250105&to=/),
      '/v1/api/pricing/lumen?version=20250311',
    ]);

    // Versions named by their YYYYMMDD; the diff between two picked ones, the new value marked.
    for (const version of VERSIONS) {
      await expect(
        page.getByRole('button', { name: new RegExp(`^${version}`) }).count(),
      ).resolves.toBe(1);
    }
    await page.getByLabel('From version').selectOption('20250311');
    await page.getByLabel('To version').selectOption('20250420');
    await page.getByRole('button', { name: 'Compare' }).click();
    const priceRow = page.getByRole('row', { name: /^price increased plan pro,/ });
    await priceRow.waitFor();
    await expect(priceRow.locator('del').textContent()).resolves.toBe('12');
    await expect(priceRow.locator('ins').textContent()).resolves.toBe('15');
    await page.locator('#diff').screenshot({ path: `${ARTIFACTS}/diff.png` });

    // A chart point compares its version with the one before.
    const box = (await page.locator('#chart').boundingBox())!;
    // Team's point at 20250313 (dataset 2, third version).
    const pointAt = await inPage<{ x: number; y: number }>(
      page,
      `(({ x, y }) => ({ x, y }))(${CHART}.getDatasetMeta(2).data[2])`,
    );
    await page.mouse.click(box.x + pointAt.x, box.y + pointAt.y);
    await page.locator('#diff caption', { hasText: 'from 20250311 to 20250313' }).waitFor();
    await expect(page.getByLabel('To version').inputValue()).resolves.toBe('20250313');
    await expect(page.locator('#diff ins').first().textContent()).resolves.toBe('25');

    // Nothing asked of another origin until a version's files are shown.
    expect(requests.filter((request) => !request.url().startsWith(`${origin}/`))).toEqual([]);

    // The files of a version: the screenshot shown, the links, what was not captured.
    await page.getByRole('button', { name: /^20250420/ }).click();
    const screenshot = page.getByRole('img', { name: /^Screenshot of / });
    await screenshot.waitFor();
    // Shown, not merely placed: the routed PNG (one pixel wide) has loaded.
    await page.waitForFunction(
      "(image => image !== null && image.complete && image.naturalWidth === 1)(document.querySelector('#files img'))",
    );
    await expect(page.getByRole('link', { name: 'Markdown' }).getAttribute('href')).resolves.toBe(
      'https://cdn.example.com/lumen.io/20250420/page.md',
    );
    await page.getByText('HTML: not captured').waitFor();
    await page.getByText('OCR: not captured').waitFor();

    // The currency: figures converted (USD → EUR at 0.5), one credit more.
    await page.getByLabel('Currency', { exact: true }).selectOption('EUR');
    await page.getByRole('img', { name: /in EUR/ }).waitFor();
    expect((await chartTable(page)).Pro).toEqual(['5', '6', '6', '7.5']);

    // The credits shown are those of the latest answer that carried them.
    const latest = apiResponses.filter((response) => response.credits !== null).at(-1)!;
    await expect(page.locator('#credits').textContent()).resolves.toBe(
      `Credits left: ${latest.credits}`,
    );
    const usage = await api.client(key).GET('/v1/api/usage');
    expect(String(usage.data!.credits.remaining)).toBe(latest.credits);

    await page.screenshot({ path: `${ARTIFACTS}/explorer-1280.png`, fullPage: true });
    expect(await hasNoHorizontalScroll(page)).toBe(true);

    // The key: in no URL, not in localStorage; nothing asked of another origin but the files'.
    for (const request of requests) {
      expect(request.url()).not.toContain(key);
      expect([origin, SCREENSHOT_HOST]).toContain(new URL(request.url()).origin);
    }
    expect(await inPage(page, 'JSON.stringify(localStorage)')).not.toContain(key);
    expect(await inPage(page, 'sessionStorage.length')).toBe(1);
    expect(await inPage(page, 'JSON.stringify(sessionStorage)')).toContain(key);
    expect(consoleErrors).toEqual([]);
    expect(violations).toEqual([]);
    await page.close();
  });

  it('fits 390 pixels and Tab alone reaches every control in reading order', async () => {
    const { page, consoleErrors } = await explorerTab(390);
    await useKey(page, key);
    await openLumen(page);
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.locator('#diff table').waitFor();
    await page.getByRole('button', { name: /^20250105/ }).click();
    await page.getByRole('img', { name: /^Screenshot of / }).waitFor();
    expect(await hasNoHorizontalScroll(page)).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}/explorer-390.png`, fullPage: true });

    const { controls, reached } = await tabThrough(page);
    expect(reached).toEqual(controls);
    expect(reached.slice(0, 5)).toEqual([
      'api-key',
      'BUTTON Use key',
      'BUTTON Forget key',
      'search',
      'BUTTON Search',
    ]);
    for (const label of [
      'currency',
      'from-version',
      'to-version',
      'BUTTON Compare',
      'A Markdown',
    ]) {
      expect(reached).toContain(label);
    }
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('says so when the key is refused, and when the plan lacks a feature', async () => {
    const { page, consoleErrors } = await explorerTab(1280);
    await useKey(page, 'pi_notAKeyThisServiceGaveOut0000000000000000');
    const problem = page.getByRole('alert');
    await problem.filter({ hasText: /^API key refused: \S/ }).waitFor();
    await page.getByRole('searchbox', { name: 'Search companies' }).fill('lum');
    const searched = page.waitForResponse((response) =>
      response.url().includes('/v1/api/companies?'),
    );
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    // The search itself is refused, and the refusal is still what the page says.
    expect((await searched).status()).toBe(401);
    await problem.filter({ hasText: /^API key refused: \S/ }).waitFor();
    // Only the browser's own line for each refused call.
    expect(consoleErrors.length).toBeGreaterThan(0);
    for (const error of consoleErrors) expect(error).toMatch(/^Failed to load resource/);

    const freeKey = await api.createKey(['read'], 'free');
    await useKey(page, freeKey);
    await page.locator('#credits', { hasText: /^Credits left: \d/ }).waitFor();
    await expect(problem.isHidden()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('button', { name: 'Lumen Notes (lumen.io)' }).click();
    await page.getByText(/^API key refused: .*plan/i).waitFor();
    await page.close();
  });

  it('links or shows a scrape file only at an http(s) address, whatever the API answers', async () => {
    const { page, consoleErrors } = await explorerTab(1280);
    // The version's real answer, with a second file whose URLs are hostile.
    await page.route(`${origin}/v1/api/files/**`, async (route) => {
      const response = await route.fetch();
      const answer = (await response.json()) as components['schemas']['FilesOfVersion'];
      const hostile = { ...answer.files[0]!, scraper: 'scraper_9', ...HOSTILE_URLS };
      await route.fulfill({
        response,
        json: { ...answer, count: answer.count + 1, files: [...answer.files, hostile] },
      });
    });
    await useKey(page, key);
    await openLumen(page);
    await page.getByRole('button', { name: /^20250420/ }).click();
    const hostileFile = page.locator('#files article', { hasText: 'scraper_9' });
    await hostileFile.waitFor();
    const addresses = await inPage<string[]>(
      page,
      "[...document.querySelectorAll('a[href], img[src]')].map((node) => node.href ?? node.src)",
    );
    for (const address of addresses) {
      expect(['http:', 'https:'], address).toContain(new URL(address).protocol);
    }
    // The captured file is still linked and shown; the hostile one says why it is not.
    expect(addresses).toEqual(
      expect.arrayContaining([
        `${SCREENSHOT_HOST}/lumen.io/20250420/page.png`,
        `${SCREENSHOT_HOST}/lumen.io/20250420/page.md`,
      ]),
    );
    for (const label of ['Screenshot', 'Markdown', 'HTML', 'OCR']) {
      await hostileFile.getByText(`${label}: not a web address`).waitFor();
    }
    await expect(hostileFile.locator('a, img').count()).resolves.toBe(0);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });
});

/** Searches "lum" and adds these companies to the comparison, in this order. */
async function pickCompanies(page: Page, names: string[]): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search companies' }).fill('lum');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  for (const name of names) {
    await page.getByRole('button', { name: `Add to comparison (${name})`, exact: true }).click();
    await page.getByRole('button', { name: `Remove ${name}`, exact: true }).waitFor();
  }
}

/** What each company of the comparison shows: its name, entry price and plans' lowest prices. */
async function comparedCompanies(page: Page) {
  const cards = await page.locator('#comparison article').all();
  return Promise.all(
    cards.map(async (card) => {
      const rows = await card.locator('tbody tr').all();
      const plans = await Promise.all(
        rows.map(async (row) => [
          await row.locator('th').textContent(),
          await row.locator('td').textContent(),
        ]),
      );
      return {
        name: await card.getByRole('heading').textContent(),
        entry: (await card.locator('.entry strong').allTextContents())[0] ?? null,
        plans: Object.fromEntries(plans) as Record<string, string>,
      };
    }),
  );
}

/**
 * The texts within `selector` whose colour contrasts with their background by less than WCAG
 * AA's 4.5:1 (the background the nearest ancestor paints, white when none does), with the ratio.
 */
function lowContrast(page: Page, selector: string): Promise<string[]> {
  return inPage(
    page,
    `(() => {
      const luminance = (color) => {
        const [r, g, b] = color.match(/[\\d.]+/g).slice(0, 3).map((value) => {
          const channel = Number(value) / 255;
          return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const painted = (node) => {
        for (let at = node; at; at = at.parentElement) {
          const color = getComputedStyle(at).backgroundColor;
          if (!/^rgba\\(.*,\\s*0\\)$/.test(color)) return color;
        }
        return 'rgb(255, 255, 255)';
      };
      const low = [];
      for (const node of document.querySelectorAll('${selector} *')) {
        const text = [...node.childNodes]
          .filter((child) => child.nodeType === Node.TEXT_NODE)
          .map((child) => child.textContent.trim())
          .join(' ');
        if (text === '' || node.closest('.visually-hidden')) continue;
        const [a, b] = [luminance(getComputedStyle(node).color), luminance(painted(node))];
        const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        if (ratio < 4.5) low.push(text + ' ' + ratio.toFixed(2));
      }
      return low;
    })()`,
  );
}

describe('the compare view', () => {
  it('sets up to four companies side by side with their entry prices, one call each time', async () => {
    const { page, consoleErrors, violations } = await explorerTab(1280);
    const compareCalls: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/v1/api/compare') compareCalls.push(url);
    });
    await useKey(page, key);
    await pickCompanies(page, ['Lumen Notes', 'Lumo Mail', 'Lumiere CRM', 'Luminary Ads']);

    // A company picked again stays once; a fifth is refused by the page itself: the four stay.
    await page.getByRole('button', { name: 'Add to comparison (Lumo Mail)', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Lumo Mail is already in the comparison.' })
      .waitFor();
    await page.getByRole('button', { name: 'Add to comparison (Lumberyard)', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^At most 4 companies/ })
      .waitFor();
    await expect(page.locator('#compare-picks li').allTextContents()).resolves.toEqual([
      'Lumen NotesRemove Lumen Notes',
      'Lumo MailRemove Lumo Mail',
      'Lumiere CRMRemove Lumiere CRM',
      'Luminary AdsRemove Luminary Ads',
    ]);

    await page.getByLabel('As of').fill('20250501');
    await page.getByRole('button', { name: 'Show side by side' }).click();
    await page.locator('#comparison article').nth(3).waitFor();
    // In the order picked, each at its extraction in force on 1 May 2025.
    expect(await comparedCompanies(page)).toEqual([
      {
        name: 'Lumen Notes',
        entry: '15 USD a month',
        plans: { Pro: '15 USD', Team: '25 USD' },
      },
      {
        name: 'Lumo Mail',
        // The free plan is no entry price.
        entry: '8 EUR a month',
        plans: { Free: '0 EUR', Plus: '8 EUR', Business: '20 EUR' },
      },
      { name: 'Lumiere CRM', entry: '9 GBP a month', plans: { Starter: '9 GBP' } },
      { name: 'Luminary Ads', entry: null, plans: {} },
    ]);
    await page.getByText('No pricing extraction on or before 20250501.').waitFor();
    // One call for the four.
    expect(compareCalls.map((url) => Object.fromEntries(url.searchParams))).toEqual([
      { slugs: 'lumen.io,lumo.io,lumiere.io,luminary.io', as_of: '20250501' },
    ]);
    // Side by side: one row, in the order picked.
    const boxes = await Promise.all(
      (await page.locator('#comparison article').all()).map(
        async (card) => (await card.boundingBox())!,
      ),
    );
    expect(new Set(boxes.map((box) => box.y)).size).toBe(1);
    expect(boxes.map((box) => box.x)).toEqual([...boxes.map((box) => box.x)].sort((a, b) => a - b));
    await page.locator('#compare').screenshot({ path: `${ARTIFACTS}/compare-1280.png` });

    // Into dollars: euros at 1 / 0.5; pounds have no rate.
    await page.getByLabel('Comparison currency').selectOption('USD');
    await page.getByRole('button', { name: 'Show side by side' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /, in USD\.$/ })
      .waitFor();
    const inDollars = await comparedCompanies(page);
    expect(inDollars.map((company) => company.entry)).toEqual([
      '15 USD a month',
      '16 USD a month',
      'none in USD (no paid plan, or no exchange rate)',
      null,
    ]);
    expect(inDollars[1]!.plans.Business).toBe('40 USD');
    expect(inDollars[2]!.plans.Starter).toBe('—');
    expect(compareCalls).toHaveLength(2);

    // The credits shown are the latest answer's.
    const usage = await api.client(key).GET('/v1/api/usage');
    await expect(page.locator('#credits').textContent()).resolves.toBe(
      `Credits left: ${usage.data!.credits.remaining}`,
    );
    expect(await lowContrast(page, '#compare')).toEqual([]);
    expect(await hasNoHorizontalScroll(page)).toBe(true);
    expect(consoleErrors).toEqual([]);
    expect(violations).toEqual([]);
    await page.close();
  });

  it('fits 390 pixels, one company below the other, and Tab alone reaches every control', async () => {
    const { page, consoleErrors } = await explorerTab(390);
    await useKey(page, key);
    await pickCompanies(page, ['Lumo Mail', 'Lumen Notes']);
    await page.getByRole('button', { name: 'Show side by side' }).click();
    const cards = page.locator('#comparison article');
    await cards.nth(1).waitFor();
    const [first, second] = [
      (await cards.nth(0).boundingBox())!,
      (await cards.nth(1).boundingBox())!,
    ];
    expect(second.y).toBeGreaterThanOrEqual(first.y + first.height);
    expect(await hasNoHorizontalScroll(page)).toBe(true);
    expect(await lowContrast(page, '#compare')).toEqual([]);
    await page.locator('#compare').screenshot({ path: `${ARTIFACTS}/compare-390.png` });

    const { controls, reached } = await tabThrough(page);
    expect(reached).toEqual(controls);
    for (const control of [
      'BUTTON Add to comparison (Lumen Notes)',
      'BUTTON Remove Lumo Mail',
      'compare-as-of',
      'compare-currency',
      'BUTTON Show side by side',
    ]) {
      expect(reached).toContain(control);
    }
    // Removed with the keyboard: the focus goes on to the form, not back to the top.
    await page.getByRole('button', { name: 'Remove Lumo Mail', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Lumo Mail removed.' }).waitFor();
    await expect(inPage(page, `(${CONTROL_NAME})(document.activeElement)`)).resolves.toBe(
      'BUTTON Show side by side',
    );
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('asks for a second company before any call, and shows the API’s refusal of a company without pricing', async () => {
    const { page, consoleErrors } = await explorerTab(1280);
    const compareCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/api/compare')) compareCalls.push(request.url());
    });
    await useKey(page, key);
    await pickCompanies(page, ['Lumberyard']);
    await page.getByRole('button', { name: 'Show side by side' }).click();
    await page.getByRole('status').filter({ hasText: 'Add at least two companies' }).waitFor();
    expect(compareCalls).toEqual([]);

    await page
      .getByRole('button', { name: 'Add to comparison (Lumen Notes)', exact: true })
      .click();
    await page.getByRole('button', { name: 'Show side by side' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'The API refused this request: No pricing page with slug lumberyard.io' })
      .waitFor();
    expect(compareCalls).toHaveLength(1);
    for (const error of consoleErrors) expect(error).toMatch(/^Failed to load resource/);
    await page.close();
  });
});

describe('the explorer with EXPLORER_IMAGE_SOURCES', () => {
  let restricted: TestApp;
  let restrictedOrigin: string;

  beforeAll(async () => {
    // A second API process on the same database, as a deployment runs several.
    restricted = await startTestApp(
      environment.config({ EXPLORER_IMAGE_SOURCES: RESTRICTED_IMAGE_SOURCES.join(',') }),
      { withWorker: false },
    );
    restrictedOrigin = new URL(restricted.baseUrl).origin;
  });

  afterAll(async () => {
    await restricted?.close();
  });

  it('lets the page and its assets load images from exactly those sources', async () => {
    for (const path of ['/explorer', '/explorer/assets/explorer.js']) {
      const response = await fetch(`${restrictedOrigin}${path}`);
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      const policy = response.headers.get('content-security-policy') ?? '';
      expect(directiveSources(policy, 'img-src')).toEqual(["'self'", ...RESTRICTED_IMAGE_SOURCES]);
    }
  });

  /** Opens 20250313, whose two files' screenshots are on SCREENSHOT_HOST and another host. */
  async function screenshotsOf20250313(at: string) {
    const tab = await explorerTab(1280, at);
    await useKey(tab.page, key);
    await openLumen(tab.page);
    await tab.page.getByRole('button', { name: /^20250313/ }).click();
    await tab.page.locator('#files img').nth(1).waitFor();
    const shown = (await settledScreenshots(tab.page)).sort((a, b) => a.src.localeCompare(b.src));
    await tab.page.close();
    return { ...tab, shown };
  }

  it('makes the browser block a screenshot from any other host, which the default lets load', async () => {
    const listed = `${SCREENSHOT_HOST}/lumen.io/20250313/page.png`;
    const unlisted = `${OTHER_SCREENSHOT_HOST}/lumen.io/20250313/page.png`;

    const anyHttps = await screenshotsOf20250313(origin);
    expect(anyHttps.shown).toEqual([
      { src: listed, width: 1 },
      { src: unlisted, width: 1 },
    ]);
    expect(anyHttps.violations).toEqual([]);

    const restrictedTab = await screenshotsOf20250313(restrictedOrigin);
    expect(restrictedTab.shown).toEqual([
      { src: listed, width: 1 },
      { src: unlisted, width: 0 },
    ]);
    // Refused by the browser before any request: the host never saw one.
    expect(restrictedTab.screenshotsServed).toEqual([listed]);
    expect(restrictedTab.violations).toEqual([expect.stringContaining(unlisted)]);
    expect(restrictedTab.consoleErrors).toEqual(restrictedTab.violations);
  });
});
