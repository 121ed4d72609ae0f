import type {
  Category,
  ChargeInput,
  CompanyRecord,
  DiscountInput,
  ExchangeRateRecord,
  IngestRecord,
  PageRecord,
  PlanInput,
  PricingRecord,
  ScrapeRecord,
} from '#app/domain';

/*
 * A deterministic demo catalogue, loaded at first start through the real ingestion path.
 * Every random choice comes from a PRNG seeded by the record's own natural key, so adding a
 * company or a page does not reshuffle the history of the others.
 */

// Fixed so that the default output is byte-for-byte stable across runs and machines.
const DEFAULT_TODAY = new Date(Date.UTC(2026, 10, 16));
const DAY_MS = 86_400_000;
const HISTORY_MONTHS = 24;
const PRIMARY_CADENCE_DAYS = 7;
// Extra pages change rarely and would otherwise dominate the record count.
const EXTRA_PAGE_CADENCE_DAYS = 28;
const SCRAPERS = ['scraper_1', 'scraper_2', 'scraper_3', 'scraper_4'] as const;
const FILES_HOST = 'https://files.example-cdn.com';

type Rng = () => number;
type PageKind = 'primary' | 'enterprise' | 'teams' | 'api';
type PricedKind = 'per_user' | 'flat' | 'usage';
type ChargeKind = PricedKind | 'free' | 'contact';
type Currency = 'USD' | 'EUR' | 'GBP';

interface DemoPage {
  record: PageRecord;
  kind: PageKind;
  category: Category;
  currency: Currency;
}

interface DemoWindow {
  startMs: number;
  todayMs: number;
}

interface PlanSpec {
  internalName: string;
  displayName: string;
  kind: ChargeKind;
  /** Index into the price ladder of its kind; unused for free and contact plans. */
  ladderIndex: number;
  addOn: boolean;
  /** Month indices (0 = first month of the history) during which the plan is offered. */
  from: number;
  until: number;
  /** Some pages do not state whether a flat fee is licensed, so neither do their charges. */
  omitUsageType: boolean;
}

interface PricingTimeline {
  currency: Currency;
  plans: PlanSpec[];
  increase: { at: number; steps: number } | null;
  annual: { percent: number; from: number; until: number } | null;
  promo: { percent: number; from: number; until: number } | null;
}

/** [display name, slug, category]: invented B2B SaaS vendors, eight per category. */
const COMPANIES: readonly (readonly [string, string, Category])[] = [
  ['AcmeChat', 'acmechat.io', 'Communication'],
  ['Hubbly', 'hubbly.com', 'Communication'],
  ['Relaycast', 'relaycast.io', 'Communication'],
  ['Pingwell', 'pingwell.com', 'Communication'],
  ['Threadly', 'threadly.app', 'Communication'],
  ['Huddlebox', 'huddlebox.io', 'Communication'],
  ['Signalpost', 'signalpost.com', 'Communication'],
  ['Echoroom', 'echoroom.co', 'Communication'],
  ['Taskforge', 'taskforge.io', 'Productivity'],
  ['NotableHQ', 'notablehq.com', 'Productivity'],
  ['Planwise', 'planwise.app', 'Productivity'],
  ['Docksy', 'docksy.com', 'Productivity'],
  ['Focusboard', 'focusboard.io', 'Productivity'],
  ['Briefcase Cloud', 'briefcasecloud.com', 'Productivity'],
  ['Outlinr', 'outlinr.app', 'Productivity'],
  ['Sheetwise', 'sheetwise.co', 'Productivity'],
  ['Deployly', 'deployly.dev', 'Development'],
  ['Codecrate', 'codecrate.io', 'Development'],
  ['Gitvane', 'gitvane.dev', 'Development'],
  ['Logtrail', 'logtrail.io', 'Development'],
  ['Queuebird', 'queuebird.dev', 'Development'],
  ['Testwright', 'testwright.dev', 'Development'],
  ['Bytewatch', 'bytewatch.io', 'Development'],
  ['Devcanvas', 'devcanvas.dev', 'Development'],
  ['Campaignly', 'campaignly.com', 'Marketing'],
  ['Mailbloom', 'mailbloom.io', 'Marketing'],
  ['Funnelcraft', 'funnelcraft.com', 'Marketing'],
  ['Seoscope', 'seoscope.io', 'Marketing'],
  ['Adpilot', 'adpilot.ai', 'Marketing'],
  ['Socialfern', 'socialfern.com', 'Marketing'],
  ['Brandkite', 'brandkite.co', 'Marketing'],
  ['Landwise', 'landwise.io', 'Marketing'],
  ['Dealflow CRM', 'dealflowcrm.com', 'Sales'],
  ['Pipewise', 'pipewise.io', 'Sales'],
  ['Closerly', 'closerly.com', 'Sales'],
  ['Quotaly', 'quotaly.io', 'Sales'],
  ['Prospecta', 'prospecta.ai', 'Sales'],
  ['Callcraft', 'callcraft.io', 'Sales'],
  ['Leadloop', 'leadloop.com', 'Sales'],
  ['Revstack', 'revstack.io', 'Sales'],
  ['Helpnest', 'helpnest.io', 'Customer Support'],
  ['Ticketly', 'ticketly.app', 'Customer Support'],
  ['SupportiveHQ', 'supportivehq.com', 'Customer Support'],
  ['Replyhub', 'replyhub.io', 'Customer Support'],
  ['Caseflow', 'caseflow.com', 'Customer Support'],
  ['Kindly Desk', 'kindlydesk.com', 'Customer Support'],
  ['Answerbase', 'answerbase.io', 'Customer Support'],
  ['Resolvio', 'resolvio.com', 'Customer Support'],
  ['Ledgerly', 'ledgerly.com', 'Finance'],
  ['Billwise', 'billwise.io', 'Finance'],
  ['Spendlane', 'spendlane.com', 'Finance'],
  ['Taxpilot', 'taxpilot.io', 'Finance'],
  ['Cashcove', 'cashcove.com', 'Finance'],
  ['Expensio', 'expensio.app', 'Finance'],
  ['Reconcilia', 'reconcilia.io', 'Finance'],
  ['Budgetbird', 'budgetbird.co', 'Finance'],
  ['Hireloop', 'hireloop.io', 'HR'],
  ['Payrollo', 'payrollo.com', 'HR'],
  ['Peoplepath', 'peoplepath.io', 'HR'],
  ['Onboardly', 'onboardly.com', 'HR'],
  ['Talentjar', 'talentjar.io', 'HR'],
  ['Shiftwise', 'shiftwise.app', 'HR'],
  ['Perkspace', 'perkspace.com', 'HR'],
  ['Reviewly', 'reviewly.io', 'HR'],
];

// Weighted towards the mid-market, where most SaaS vendors with public pricing sit.
const EMPLOYEE_BANDS: readonly (readonly [string, number])[] = [
  ['1-10', 5],
  ['11-50', 20],
  ['51-200', 30],
  ['201-500', 20],
  ['501-1000', 12],
  ['1000+', 13],
];

// Real pricing pages use charm and round prices, so increases step along a ladder instead of
// multiplying by a factor.
const PRICE_LADDERS: Record<PricedKind, readonly number[]> = {
  per_user: [4, 5, 6, 7, 8, 9, 10, 12, 14, 15, 16, 18, 19, 20, 24, 25, 29, 30, 35, 39, 45, 49],
  flat: [9, 15, 19, 25, 29, 39, 49, 59, 79, 99, 129, 149, 199, 249, 299, 399, 499, 599, 799],
  usage: [0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.75, 0.8, 1, 1.2, 1.5, 2],
};

/**
 * How each other currency's dollar rate moves: its middle, how far it swings either way, and over
 * how many months it swings there and back (a zigzag, plus a little noise each month).
 */
const DOLLAR_RATES: Record<
  Exclude<Currency, 'USD'>,
  { middle: number; swing: number; months: number }
> = {
  EUR: { middle: 1.1, swing: 0.05, months: 19 },
  GBP: { middle: 1.29, swing: 0.05, months: 23 },
};

const PER_USER_METRIC = { display_name: 'per user', modality: 'user_based' };
const API_CALL_METRIC = { display_name: 'per 1,000 API calls', modality: 'usage_based' };

export function buildDemoCatalogue(options: { today?: Date } = {}): IngestRecord[] {
  const window = historyWindow(options.today ?? DEFAULT_TODAY);
  const companies = COMPANIES.map(([name, slug, category]) => companyRecord(name, slug, category));
  const pages = COMPANIES.flatMap(([, slug, category], index) => pagesOf(slug, category, index));
  const scrapesByPage = pages.map((page) => scrapesOf(page, window));
  const pricing = pages.flatMap((page, index) => pricingOf(page, scrapesByPage[index], window));
  return [
    ...companies,
    ...pages.map((page) => page.record),
    ...scrapesByPage.flat(),
    ...pricing,
    ...exchangeRatesOf(window),
  ];
}

// --- randomness -------------------------------------------------------------------------------

function mulberry32(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** FNV-1a, to turn a natural key into a PRNG seed. */
function hashSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function rngFor(key: string): Rng {
  return mulberry32(hashSeed(key));
}

function chance(rng: Rng, probability: number): boolean {
  return rng() < probability;
}

function intBetween(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)];
}

/** Fisher-Yates; a random sort comparator would depend on the engine's sort algorithm. */
function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

function pickWeighted(rng: Rng, items: readonly (readonly [string, number])[]): string {
  const total = items.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = rng() * total;
  for (const [value, weight] of items) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return items[items.length - 1][0];
}

// --- dates ------------------------------------------------------------------------------------

function historyWindow(today: Date): DemoWindow {
  const [year, month, day] = [today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()];
  return {
    startMs: Date.UTC(year, month - HISTORY_MONTHS, day),
    todayMs: Date.UTC(year, month, day),
  };
}

function versionOf(ms: number): string {
  const date = new Date(ms);
  const month = String(date.getUTCMonth() + 1).padStart(2, '0');
  const day = String(date.getUTCDate()).padStart(2, '0');
  return `${date.getUTCFullYear()}${month}${day}`;
}

/** Months since the first month of the history, so timeline events can be placed by month. */
function monthIndex(version: string, window: DemoWindow): number {
  const start = new Date(window.startMs);
  const year = Number(version.slice(0, 4));
  const month = Number(version.slice(4, 6)) - 1;
  return year * 12 + month - (start.getUTCFullYear() * 12 + start.getUTCMonth());
}

// --- companies and pages ----------------------------------------------------------------------

function companyRecord(name: string, slug: string, category: Category): CompanyRecord {
  const rng = rngFor(`company:${slug}`);
  return {
    type: 'company',
    slug,
    name,
    category,
    employees: pickWeighted(rng, EMPLOYEE_BANDS),
    url: `https://www.${slug}`,
  };
}

function pagesOf(companySlug: string, category: Category, companyIndex: number): DemoPage[] {
  const rng = rngFor(`pages:${companySlug}`);
  // A few European vendors price in euros on every page, a few British ones in pounds. One draw
  // decides, so the draws after it (the extra pages) are what they were before pounds came in.
  const roll = rng();
  const currency: Currency = roll < 0.15 ? 'EUR' : roll < 0.27 ? 'GBP' : 'USD';
  const kinds: PageKind[] = ['primary', ...extraPageKinds(rng, category, companyIndex)];
  return kinds.map((kind) => ({
    record: pageRecord(companySlug, kind),
    kind,
    category,
    currency,
  }));
}

/**
 * Every fifth company also publishes pages for other audiences: enough to exercise composite
 * slugs and multi-page companies without multiplying the history that is loaded at first start.
 */
function extraPageKinds(rng: Rng, category: Category, companyIndex: number): PageKind[] {
  if (companyIndex % 5 !== 2) return [];
  const pool: PageKind[] =
    category === 'Development' || chance(rng, 0.3)
      ? ['api', 'enterprise', 'teams']
      : ['enterprise', 'teams'];
  return shuffled(rng, pool).slice(0, intBetween(rng, 1, 2));
}

function pageRecord(companySlug: string, kind: PageKind): PageRecord {
  const pageSlug = kind === 'primary' ? '' : kind;
  const path = pageSlug === '' ? 'pricing' : `pricing/${pageSlug}`;
  return {
    type: 'page',
    company_slug: companySlug,
    page_slug: pageSlug,
    pricing_page_url: `https://www.${companySlug}/${path}`,
  };
}

// --- scrapes ----------------------------------------------------------------------------------

function scrapesOf(page: DemoPage, window: DemoWindow): ScrapeRecord[] {
  const { company_slug, page_slug } = page.record;
  const rng = rngFor(`scrapes:${company_slug}/${page_slug}`);
  const primary = page.kind === 'primary';
  const cadence = primary ? PRIMARY_CADENCE_DAYS : EXTRA_PAGE_CADENCE_DAYS;
  const firstScraper = pick(rng, SCRAPERS);
  // Some pages moved to another scraper midway, as happens when one stops coping with a site.
  const laterScraper = chance(rng, 0.3) ? pick(rng, SCRAPERS) : firstScraper;
  const switchMs = window.startMs + rng() * (window.todayMs - window.startMs);
  // A multi-week hole, as when a site blocked the scrapers for a while.
  const outage = primary && chance(rng, 0.25) ? outageRange(rng, window) : null;
  const scrapes: ScrapeRecord[] = [];
  const firstMs = window.startMs + intBetween(rng, 0, 6) * DAY_MS;
  for (let ms = firstMs; ms <= window.todayMs; ms += cadence * DAY_MS) {
    const skipped = chance(rng, primary ? 0.22 : 0.05) || (outage && isWithin(ms, outage));
    if (!skipped) {
      const scraper = ms < switchMs ? firstScraper : laterScraper;
      scrapes.push(scrapeRecord(page, versionOf(ms), scraper, rng));
      if (chance(rng, 0.06)) {
        const second = pick(rng, otherScrapers(scraper));
        scrapes.push(scrapeRecord(page, versionOf(ms), second, rng));
      }
    }
  }
  return scrapes;
}

function outageRange(rng: Rng, window: DemoWindow): [number, number] {
  const start = window.startMs + rng() * (window.todayMs - window.startMs - 60 * DAY_MS);
  return [start, start + intBetween(rng, 3, 5) * 7 * DAY_MS];
}

function isWithin(ms: number, [from, to]: [number, number]): boolean {
  return ms >= from && ms < to;
}

function otherScrapers(scraper: string): string[] {
  return SCRAPERS.filter((candidate) => candidate !== scraper);
}

function scrapeRecord(page: DemoPage, version: string, scraper: string, rng: Rng): ScrapeRecord {
  const { company_slug, page_slug, pricing_page_url } = page.record;
  const folder = `${FILES_HOST}/${company_slug}/${page_slug || 'primary'}/${version}/${scraper}`;
  const valid = validity(rng);
  return {
    type: 'scrape',
    company_slug,
    page_slug,
    version,
    page_url: pricing_page_url,
    screenshot_url: chance(rng, 0.03) ? null : `${folder}/page.png`,
    markdown_url: chance(rng, 0.05) ? null : `${folder}/page.md`,
    html_url: chance(rng, 0.04) ? null : `${folder}/page.html`,
    // scraper_4 captures no OCR at all; the others occasionally fail to.
    ocr_url: scraper === 'scraper_4' || chance(rng, 0.05) ? null : `${folder}/ocr.json`,
    scraper,
    valid,
    score: valid === false ? intBetween(rng, 0, 4) : intBetween(rng, 6, 10),
    banner_free: chance(rng, 0.05) ? null : chance(rng, 0.85),
  };
}

function validity(rng: Rng): boolean | null {
  const roll = rng();
  if (roll < 0.03) return null;
  return roll >= 0.1;
}

// --- pricing ----------------------------------------------------------------------------------

/** One extraction per month, from the first valid scrape of the month. */
function pricingOf(page: DemoPage, scrapes: ScrapeRecord[], window: DemoWindow): PricingRecord[] {
  const timeline = pricingTimeline(page);
  const firstValidByMonth = new Map<string, ScrapeRecord>();
  for (const scrape of scrapes) {
    const month = scrape.version.slice(0, 6);
    if (scrape.valid === true && !firstValidByMonth.has(month)) {
      firstValidByMonth.set(month, scrape);
    }
  }
  return [...firstValidByMonth.values()].map((scrape) => ({
    type: 'pricing',
    company_slug: scrape.company_slug,
    page_slug: scrape.page_slug,
    version: scrape.version,
    scraper: scrape.scraper,
    plans: plansAt(timeline, monthIndex(scrape.version, window)),
  }));
}

function pricingTimeline(page: DemoPage): PricingTimeline {
  const rng = rngFor(`pricing:${page.record.company_slug}/${page.record.page_slug}`);
  return {
    currency: page.currency,
    plans: planLineup(page, rng),
    increase: chance(rng, 0.55)
      ? { at: intBetween(rng, 4, 20), steps: intBetween(rng, 1, 2) }
      : null,
    annual: annualDiscountWindow(rng),
    promo: chance(rng, 0.2) ? promoWindow(rng) : null,
  };
}

function annualDiscountWindow(rng: Rng): PricingTimeline['annual'] {
  const percent = pick(rng, [10, 15, 17, 20, 25]);
  const roll = rng();
  if (roll < 0.4) return { percent, from: 0, until: Infinity };
  if (roll < 0.6) return { percent, from: intBetween(rng, 4, 20), until: Infinity };
  if (roll < 0.75) return { percent, from: 0, until: intBetween(rng, 4, 20) };
  return null;
}

function promoWindow(rng: Rng): PricingTimeline['promo'] {
  const from = intBetween(rng, 2, 21);
  return { percent: pick(rng, [30, 50]), from, until: from + intBetween(rng, 1, 3) };
}

/**
 * The plans a page ever offers. A base lineup of two or three is always on offer except for at
 * most one retired plan, and at most one plan is added later, so any month shows 2 to 4 plans.
 */
function planLineup(page: DemoPage, rng: Rng): PlanSpec[] {
  const changeAt = intBetween(rng, 5, 19);
  switch (page.kind) {
    case 'primary':
      return primaryLineup(page.category, rng, changeAt);
    case 'enterprise':
      return enterpriseLineup(rng, changeAt);
    case 'teams':
      return teamsLineup(rng, changeAt);
    case 'api':
      return apiLineup(rng, changeAt);
  }
}

function primaryLineup(category: Category, rng: Rng, changeAt: number): PlanSpec[] {
  const style = primaryChargeStyle(category, rng);
  const entry = intBetween(rng, 0, 6);
  const pro = entry + intBetween(rng, 3, 6);
  const plans = [
    chance(rng, 0.6)
      ? plan('free', 'Free', 'free', 0, rng)
      : plan('starter', 'Starter', style, entry, rng),
    plan('pro', 'Pro', style, pro, rng),
    plan('enterprise', 'Enterprise', 'contact', 0, rng),
  ];
  if (chance(rng, 0.25)) plans[0].until = changeAt;
  const addition = rng();
  if (addition < 0.2) {
    plans.splice(2, 0, { ...plan('business', 'Business', style, pro + 3, rng), from: changeAt });
  } else if (addition < 0.35) {
    plans.push({
      ...plan('ai_assistant', 'AI Assistant', 'per_user', 3, rng, true),
      from: changeAt,
    });
  }
  return plans;
}

/** Developer tools often bill by usage, finance and marketing tools by flat tiers. */
function primaryChargeStyle(category: Category, rng: Rng): ChargeKind {
  if (category === 'Development' && chance(rng, 0.4)) return 'usage';
  if ((category === 'Finance' || category === 'Marketing') && chance(rng, 0.5)) return 'flat';
  return 'per_user';
}

function enterpriseLineup(rng: Rng, changeAt: number): PlanSpec[] {
  const plans = [
    plan('business', 'Business', 'per_user', intBetween(rng, 12, 17), rng),
    plan('enterprise', 'Enterprise', 'contact', 0, rng),
  ];
  if (chance(rng, 0.4)) {
    plans.push({
      ...plan('security_pack', 'Security Pack', 'per_user', 2, rng, true),
      from: changeAt,
    });
  }
  return plans;
}

function teamsLineup(rng: Rng, changeAt: number): PlanSpec[] {
  const team = intBetween(rng, 4, 10);
  const plans = [
    plan('team', 'Team', 'per_user', team, rng),
    plan('team_plus', 'Team Plus', 'per_user', team + intBetween(rng, 2, 4), rng),
  ];
  if (chance(rng, 0.4)) {
    plans.unshift({ ...plan('team_free', 'Team Free', 'free', 0, rng), from: changeAt });
  }
  return plans;
}

function apiLineup(rng: Rng, changeAt: number): PlanSpec[] {
  const payg = intBetween(rng, 4, 9);
  const plans = [
    plan('developer', 'Developer', 'free', 0, rng),
    plan('pay_as_you_go', 'Pay as you go', 'usage', payg, rng),
    plan('enterprise', 'Enterprise', 'contact', 0, rng),
  ];
  if (chance(rng, 0.3)) plans[0].until = changeAt;
  if (chance(rng, 0.4)) {
    // Volume tier: a lower unit price for committed usage.
    const scale = Math.max(0, payg - intBetween(rng, 1, 3));
    plans.splice(2, 0, { ...plan('scale', 'Scale', 'usage', scale, rng), from: changeAt });
  }
  return plans;
}

function plan(
  internalName: string,
  displayName: string,
  kind: ChargeKind,
  ladderIndex: number,
  rng: Rng,
  addOn = false,
): PlanSpec {
  return {
    internalName,
    displayName,
    kind,
    ladderIndex,
    addOn,
    from: 0,
    until: Infinity,
    omitUsageType: kind === 'flat' && chance(rng, 0.5),
  };
}

function plansAt(timeline: PricingTimeline, month: number): PlanInput[] {
  const offered = timeline.plans.filter((spec) => month >= spec.from && month < spec.until);
  const firstPaid = offered.find((spec) => isPaid(spec.kind) && !spec.addOn);
  return offered.map((spec) => ({
    display_name: spec.displayName,
    internal_name: spec.internalName,
    add_on: spec.addOn,
    charges: chargesOf(spec, timeline, month),
    discounts: discountsOf(spec, timeline, month, spec === firstPaid),
  }));
}

function isPaid(kind: ChargeKind): kind is PricedKind {
  return kind === 'per_user' || kind === 'flat' || kind === 'usage';
}

function activeAnnualPercent(timeline: PricingTimeline, month: number): number | null {
  const annual = timeline.annual;
  return annual && month >= annual.from && month < annual.until ? annual.percent : null;
}

function priceAt(
  kind: PricedKind,
  ladderIndex: number,
  timeline: PricingTimeline,
  month: number,
): number {
  const ladder = PRICE_LADDERS[kind];
  const increase = timeline.increase;
  const steps = increase && month >= increase.at ? increase.steps : 0;
  return ladder[Math.min(ladderIndex + steps, ladder.length - 1)];
}

function chargesOf(spec: PlanSpec, timeline: PricingTimeline, month: number): ChargeInput[] {
  const currency = timeline.currency;
  switch (spec.kind) {
    case 'free':
      return [unpricedCharge('freemium', currency, 'Free', 'Free')];
    case 'contact':
      return [unpricedCharge('pricing_not_disclosed', currency, 'Custom pricing', 'Contact sales')];
    case 'usage':
      return [usageCharge(currency, priceAt(spec.kind, spec.ladderIndex, timeline, month))];
  }
  const price = priceAt(spec.kind, spec.ladderIndex, timeline, month);
  const annualPercent = activeAnnualPercent(timeline, month);
  const charges = [recurringCharge(spec, currency, price)];
  if (annualPercent !== null) charges.push(yearlyCharge(spec, currency, price, annualPercent));
  return charges;
}

function unpricedCharge(
  billing: 'freemium' | 'pricing_not_disclosed',
  currency: Currency,
  displayName: string,
  priceDisplay: string,
): ChargeInput {
  return {
    billing,
    currency,
    price: null,
    charge_type: 'flat',
    pricing_metric: null,
    display_name: displayName,
    price_display: priceDisplay,
    included_quantity: null,
    overage_info: null,
  };
}

function usageCharge(currency: Currency, price: number): ChargeInput {
  return {
    billing: 'monthly_recurring_billed_monthly',
    currency,
    price,
    charge_type: 'metered',
    pricing_metric: { ...API_CALL_METRIC },
    usage_type: 'pay_as_you_go',
    display_name: 'API calls',
    price_display: `${money(currency, price)} per 1,000 API calls`,
    included_quantity: null,
    overage_info: null,
  };
}

function recurringCharge(spec: PlanSpec, currency: Currency, price: number): ChargeInput {
  if (spec.kind === 'per_user') {
    return {
      billing: 'monthly_recurring_billed_monthly',
      currency,
      price,
      charge_type: 'metered',
      pricing_metric: { ...PER_USER_METRIC },
      usage_type: 'licensed',
      display_name: 'Per user, billed monthly',
      price_display: `${money(currency, price)}/user/month`,
      included_quantity: null,
      overage_info: null,
    };
  }
  return flatCharge(spec, {
    billing: 'monthly_recurring_billed_monthly',
    currency,
    price,
    displayName: 'Billed monthly',
    priceDisplay: `${money(currency, price)}/month`,
  });
}

/** The annual option: per-user plans quote a monthly equivalent, flat plans a yearly total. */
function yearlyCharge(
  spec: PlanSpec,
  currency: Currency,
  monthlyPrice: number,
  percent: number,
): ChargeInput {
  const factor = 1 - percent / 100;
  if (spec.kind === 'per_user') {
    const price = round2(monthlyPrice * factor);
    return {
      ...recurringCharge(spec, currency, price),
      billing: 'monthly_recurring_billed_yearly',
      display_name: 'Per user, billed yearly',
      price_display: `${money(currency, price)}/user/month, billed yearly`,
    };
  }
  const price = round2(monthlyPrice * 12 * factor);
  return flatCharge(spec, {
    billing: 'annual_recurring_billed_yearly',
    currency,
    price,
    displayName: 'Billed yearly',
    priceDisplay: `${money(currency, price)}/year`,
  });
}

function flatCharge(
  spec: PlanSpec,
  fields: {
    billing: string;
    currency: Currency;
    price: number;
    displayName: string;
    priceDisplay: string;
  },
): ChargeInput {
  return {
    billing: fields.billing,
    currency: fields.currency,
    price: fields.price,
    charge_type: 'flat',
    pricing_metric: null,
    ...(spec.omitUsageType ? {} : { usage_type: 'licensed' }),
    display_name: fields.displayName,
    price_display: fields.priceDisplay,
    included_quantity: null,
    overage_info: null,
  };
}

function discountsOf(
  spec: PlanSpec,
  timeline: PricingTimeline,
  month: number,
  isEntryPaidPlan: boolean,
): DiscountInput[] {
  const discounts: DiscountInput[] = [];
  const annualPercent = activeAnnualPercent(timeline, month);
  if (annualPercent !== null && (spec.kind === 'per_user' || spec.kind === 'flat')) {
    discounts.push({
      discount_category: 'annual_discount',
      amount_type: 'percent',
      amount: annualPercent,
      description: `Save ${annualPercent}% with annual billing`,
      duration: '12 months',
    });
  }
  const promo = timeline.promo;
  if (promo && isEntryPaidPlan && month >= promo.from && month < promo.until) {
    discounts.push({
      discount_category: 'promotional',
      amount_type: 'percent',
      amount: promo.percent,
      description: `${promo.percent}% off your first 3 months`,
      duration: '3 months',
    });
  }
  return discounts;
}

function money(currency: Currency, amount: number): string {
  const symbol = { USD: '$', EUR: '€', GBP: '£' }[currency];
  return `${symbol}${Number.isInteger(amount) ? amount : amount.toFixed(2)}`;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

// --- exchange rates ---------------------------------------------------------------------------

/**
 * Rates on the first of every month from the month the history starts in (so on or before every
 * version) to today: euros and pounds in dollars, and euros in pounds, consistent with both.
 * Any demo price then converts into dollars, euros or pounds at any version, directly or by the
 * inverse rate.
 */
function exchangeRatesOf(window: DemoWindow): ExchangeRateRecord[] {
  const start = new Date(window.startMs);
  const [year, firstMonth] = [start.getUTCFullYear(), start.getUTCMonth()];
  const rates: ExchangeRateRecord[] = [];
  // Date.UTC carries a month past December into the next year.
  for (let month = firstMonth; Date.UTC(year, month, 1) <= window.todayMs; month++) {
    const date = versionOf(Date.UTC(year, month, 1));
    const eur = dollarRate('EUR', date);
    const gbp = dollarRate('GBP', date);
    rates.push(
      exchangeRate(date, 'EUR', 'USD', eur),
      exchangeRate(date, 'GBP', 'USD', gbp),
      exchangeRate(date, 'EUR', 'GBP', round4(eur / gbp)),
    );
  }
  return rates;
}

/** What one unit of `currency` is worth in dollars on `date`, the first of a month. */
function dollarRate(currency: Exclude<Currency, 'USD'>, date: string): number {
  const { middle, swing, months } = DOLLAR_RATES[currency];
  const monthNumber = Number(date.slice(0, 4)) * 12 + Number(date.slice(4, 6));
  // A zigzag from -1 to 1 and back over `months`: plain arithmetic, the same on every machine.
  const zigzag = Math.abs(((monthNumber % months) / months) * 4 - 2) - 1;
  const noise = rngFor(`exchange_rate:${date}/${currency}/USD`)() - 0.5;
  return round4(middle + swing * zigzag + noise * 0.02);
}

function exchangeRate(
  date: string,
  base: Currency,
  quote: Currency,
  rate: number,
): ExchangeRateRecord {
  return { type: 'exchange_rate', date, base, quote, rate };
}

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
