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

const plan = (internal_name: string, display_name: string, price: number | null): Plan => ({
  display_name,
  internal_name,
  add_on: false,
  charges: [
    {
      billing: price === null ? 'freemium' : 'monthly_recurring_billed_monthly',
      currency: 'USD',
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
    await page.getByLabel('Currency').selectOption('EUR');
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

    // Tab from the top through the whole page: every control, each after the one before.
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
