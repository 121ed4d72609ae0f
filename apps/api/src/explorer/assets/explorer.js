/**
 * The pricing explorer, in the browser. Every data call is an ordinary metered call of this
 * origin's API with the visitor's key in the Authorization header; the key lives in this tab's
 * sessionStorage only (never localStorage, never a URL).
 */

const API = '/v1/api';
const KEY_ITEM = 'pricing-explorer.api-key';
const DAY_MS = 86_400_000;

/** The series steps, shortest first, and a length that reaches into the next step. */
const STEPS = [
  { step: 'week', days: 7 },
  { step: 'month', days: 31 },
  { step: 'quarter', days: 92 },
];
/** The most points a series answers (CONTRACT section 8). */
const SERIES_MAX_POINTS = 520;

const $ = (id) => document.getElementById(id);

const state = { chart: null, page: null, picks: [] };

// ------------------------------------------------------------------ the key and the calls

function storedKey() {
  return sessionStorage.getItem(KEY_ITEM) ?? '';
}

/** A refused call, with the message the API gave. */
class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** GET an API route with the key; shows the credits left; throws ApiError on a refusal. */
async function apiGet(path, query = {}) {
  const key = storedKey();
  if (!key) throw new ApiError(401, 'enter your API key first');
  const search = new URLSearchParams(
    Object.entries(query).filter(([, value]) => value !== undefined && value !== ''),
  );
  const url = `${API}${path}${search.size > 0 ? `?${search}` : ''}`;
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  const credits = response.headers.get('x-credits-remaining');
  if (credits !== null) $('credits').textContent = `Credits left: ${credits}`;
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, errorMessage(body, response));
  return body;
}

/** Pricing and files errors are `{error: message, code}`, the others `{error, message}`. */
function errorMessage(body, response) {
  return body?.message ?? body?.error ?? `${response.status} ${response.statusText}`;
}

function showProblem(error) {
  const problem = $('problem');
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
    problem.textContent = `API key refused: ${error.message}`;
  } else if (error instanceof ApiError) {
    problem.textContent = `The API refused this request: ${error.message}`;
  } else {
    problem.textContent = `Something went wrong: ${error.message}`;
  }
  problem.hidden = false;
}

function clearProblem() {
  $('problem').hidden = true;
  $('problem').textContent = '';
}

/** Runs one user action: clears the last problem, shows the next one. */
async function act(action) {
  clearProblem();
  try {
    await action();
  } catch (error) {
    showProblem(error);
  }
}

// ------------------------------------------------------------------ small DOM helpers

function element(tag, properties = {}, children = []) {
  const node = Object.assign(document.createElement(tag), properties);
  node.append(...children);
  return node;
}

function choiceButton(label, onClick) {
  const button = element('button', { type: 'button', className: 'choice', textContent: label });
  button.addEventListener('click', () => act(() => onClick(button)));
  return element('li', {}, [button]);
}

/** Marks the chosen button of a list as the current one. */
function markCurrent(list, chosen) {
  for (const button of list.querySelectorAll('button.choice')) {
    button.setAttribute('aria-current', String(button === chosen));
  }
}

/**
 * A button whose visible label is `label` and whose accessible name goes on with `more` (which
 * company it acts on), after a space: the name starts with what the eye reads.
 */
function namedButton(label, more, onClick) {
  const button = element('button', { type: 'button' }, [
    label,
    element('span', { className: 'visually-hidden', textContent: ` ${more}` }),
  ]);
  button.addEventListener('click', () => act(onClick));
  return button;
}

/** `20250105` → a Date at midnight UTC. */
function versionDate(version) {
  return new Date(Date.UTC(+version.slice(0, 4), +version.slice(4, 6) - 1, +version.slice(6, 8)));
}

function versionOf(date) {
  return date.toISOString().slice(0, 10).replaceAll('-', '');
}

const DATE_FORMAT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });

/** What a version button says: its YYYYMMDD first, then the date for people. */
function versionLabel(version) {
  return `${version} · ${DATE_FORMAT.format(versionDate(version))}`;
}

// ------------------------------------------------------------------ search and companies

async function searchCompanies(text) {
  const answer = await apiGet('/companies', { search: text, limit: 20 });
  const results = $('results');
  results.replaceChildren(
    ...answer.data.map((company) => {
      const item = choiceButton(`${company.name} (${company.slug})`, (button) => {
        markCurrent(results, button);
        return openCompany(company.slug);
      });
      item.className = 'pick';
      item.append(namedButton('Add to comparison', `(${company.name})`, () => pick(company)));
      return item;
    }),
  );
  const summary = $('search-summary');
  const total = answer.pagination.total;
  summary.textContent =
    total === 0
      ? `No company matches “${text}”.`
      : `${total} ${total === 1 ? 'company matches' : 'companies match'}` +
        (total > answer.data.length ? `; the first ${answer.data.length} are shown.` : '.');
  summary.hidden = false;
}

/** A page's composite slug, as the API computes it: the company slug without its extension. */
function pageSlug(page) {
  const lastDot = page.company_slug.lastIndexOf('.');
  const base = lastDot > 0 ? page.company_slug.slice(0, lastDot) : page.company_slug;
  return page.page_slug === '' ? base : `${base}.${page.page_slug}`;
}

async function openCompany(slug) {
  const company = await apiGet(`/companies/${encodeURIComponent(slug)}`, { include: 'pages' });
  $('company-heading').textContent = company.name;
  $('company-summary').textContent =
    `${company.category}, ${company.employees} employees, ${company.pages.length} pricing ` +
    `${company.pages.length === 1 ? 'page' : 'pages'}.`;
  const pages = $('pages');
  pages.replaceChildren(
    ...company.pages.map((page) =>
      choiceButton(`${pageSlug(page)} (${page.pricing_page_url})`, (button) => {
        markCurrent(pages, button);
        return openPage(pageSlug(page));
      }),
    ),
  );
  $('company').hidden = false;
  $('pricing').hidden = true;
  if (company.pages.length === 1) {
    const only = pages.querySelector('button');
    markCurrent(pages, only);
    await openPage(pageSlug(company.pages[0]));
  }
}

// ------------------------------------------------------------------ companies side by side

/** The most companies the compare view sets side by side (the route itself takes ten pages). */
const COMPARED_AT_MOST = 4;

function pick(company) {
  const note = $('compare-note');
  if (state.picks.some((picked) => picked.slug === company.slug)) {
    note.textContent = `${company.name} is already in the comparison.`;
  } else if (state.picks.length >= COMPARED_AT_MOST) {
    note.textContent = `At most ${COMPARED_AT_MOST} companies: remove one to add ${company.name}.`;
  } else {
    state.picks.push({ slug: company.slug, name: company.name });
    note.textContent = `${company.name} added: ${state.picks.length} of ${COMPARED_AT_MOST}.`;
  }
  listPicks();
  $('compare').hidden = false;
}

function unpick(picked) {
  state.picks = state.picks.filter((other) => other !== picked);
  $('compare-note').textContent = `${picked.name} removed.`;
  listPicks();
  // Its button is gone: the focus goes on to the form rather than back to the top of the page.
  $('compare-form').querySelector('button').focus();
}

function listPicks() {
  $('compare-picks').replaceChildren(
    ...state.picks.map((picked) =>
      element('li', { className: 'pick' }, [
        element('span', { textContent: picked.name }),
        namedButton('Remove', picked.name, () => unpick(picked)),
      ]),
    ),
  );
}

/** The currency a figure is in: the one asked for, else that of the charge it comes from. */
function unitOf(charges, figure, currency) {
  if (currency) return currency;
  return charges.find((charge) => charge.monthly_equivalent === figure)?.currency ?? '';
}

function entryText(page, currency) {
  if (page.entry_price === null) {
    return currency
      ? `none in ${currency} (no paid plan, or no exchange rate)`
      : 'none (no paid plan, or prices in several currencies)';
  }
  const charges = page.plans.filter((plan) => !plan.add_on).flatMap((plan) => plan.charges);
  return `${page.entry_price} ${unitOf(charges, page.entry_price, currency)} a month`;
}

function comparedPlans(page, currency) {
  const rows = page.plans.map((plan) => {
    const lowest = plan.lowest_monthly_equivalent;
    return element('tr', {}, [
      element('th', {
        scope: 'row',
        textContent: plan.add_on ? `${plan.display_name} (add-on)` : plan.display_name,
      }),
      element('td', {
        className: 'number',
        textContent: lowest === null ? '—' : `${lowest} ${unitOf(plan.charges, lowest, currency)}`,
      }),
    ]);
  });
  return element('div', { className: 'scroll' }, [
    element('table', {}, [
      element('caption', { textContent: `Plans of ${page.company_name}` }),
      element('thead', {}, [
        element('tr', {}, [
          element('th', { scope: 'col', textContent: 'Plan' }),
          element('th', { scope: 'col', textContent: 'Lowest a month' }),
        ]),
      ]),
      element('tbody', {}, rows),
    ]),
  ]);
}

function comparedPage(page, index, comparison) {
  const heading = element('h3', { id: `compared-${index}`, textContent: page.company_name });
  const about = element('p', { className: 'hint', textContent: `${page.slug}, ${page.category}` });
  const parts =
    page.version === null
      ? [element('p', { textContent: `No pricing extraction on or before ${comparison.as_of}.` })]
      : [
          element('p', { className: 'hint', textContent: `Version ${versionLabel(page.version)}` }),
          element('p', { className: 'entry' }, [
            'Entry price: ',
            element('strong', { textContent: entryText(page, comparison.currency) }),
          ]),
          comparedPlans(page, comparison.currency),
        ];
  const card = element('article', { className: 'compared' }, [heading, about, ...parts]);
  card.setAttribute('aria-labelledby', heading.id);
  return card;
}

/** One call whatever the number of companies: GET /compare with their slugs in the order picked. */
async function showComparison() {
  const note = $('compare-note');
  if (state.picks.length < 2) {
    note.textContent = 'Add at least two companies to compare them.';
    return;
  }
  const comparison = await apiGet('/compare', {
    slugs: state.picks.map((picked) => picked.slug).join(','),
    as_of: $('compare-as-of').value.trim(),
    currency: $('compare-currency').value,
  });
  $('comparison').replaceChildren(
    ...comparison.pages.map((page, index) => comparedPage(page, index, comparison)),
  );
  note.textContent =
    `${comparison.pages.length} companies as of ${comparison.as_of}` +
    (comparison.currency ? `, in ${comparison.currency}.` : '.');
}

// ------------------------------------------------------------------ the price timeline

/**
 * One set of plans per pricing version, for the fewest credits: the version list is free, and
 * one series call (1 credit) whose steps are short enough gives most versions at once (a point
 * shows the latest version on or before its date). A version that shares a step with a later
 * one never shows up in the series: only those are fetched one by one (1 credit each).
 */
async function plansByVersion(slug, versions, currency) {
  const byVersion = new Map();
  const first = versionDate(versions[0]);
  const last = versionDate(versions.at(-1));
  const span = (last - first) / DAY_MS;
  // The shortest step whose points fit in one answer; `to` lies in the step after the last
  // version, so a point on or after it shows that version.
  const { step, days } =
    STEPS.find((candidate) => span / candidate.days + 2 < SERIES_MAX_POINTS) ?? STEPS.at(-1);
  const series = await apiGet(`/pricing/${encodeURIComponent(slug)}/series`, {
    step,
    from: versions[0],
    to: versionOf(new Date(last.getTime() + days * DAY_MS)),
    currency,
  });
  for (const point of series.points) {
    if (point.version !== null) byVersion.set(point.version, point.plans);
  }
  let unconverted = series.unconverted ?? 0;
  for (const version of versions.filter((version) => !byVersion.has(version))) {
    const document = await apiGet(`/pricing/${encodeURIComponent(slug)}`, { version, currency });
    byVersion.set(version, document.plans);
    unconverted += document.unconverted ?? 0;
  }
  return { byVersion, unconverted, step };
}

/**
 * The figure a plan shows at a version: its lowest monthly equivalent (the plan search's
 * `monthly` order), converted when a currency is asked for. Without one, charges in several
 * currencies give one line per currency.
 */
function planFigures(plans, currency) {
  const figures = new Map();
  for (const plan of plans) {
    for (const charge of plan.charges) {
      const value = currency ? charge.converted?.monthly_equivalent : charge.monthly_equivalent;
      if (value === null || value === undefined) continue;
      const unit = currency || charge.currency;
      const id = `${plan.internal_name}\u0000${unit}`;
      const known = figures.get(id);
      if (known === undefined || value < known.value) {
        figures.set(id, { id, name: plan.display_name, unit, value });
      }
    }
  }
  return [...figures.values()];
}

/** The chart's lines: one per plan (and currency), one value per version or null. */
function timeline(versions, byVersion, currency) {
  const lines = new Map();
  versions.forEach((version, index) => {
    for (const figure of planFigures(byVersion.get(version), currency)) {
      if (!lines.has(figure.id)) {
        lines.set(figure.id, { ...figure, values: versions.map(() => null) });
      }
      lines.get(figure.id).values[index] = figure.value;
    }
  });
  const units = new Set([...lines.values()].map((line) => line.unit));
  return [...lines.values()].map((line) => ({
    label: units.size > 1 ? `${line.name} (${line.unit})` : line.name,
    unit: line.unit,
    values: line.values,
  }));
}

const PALETTE = ['#0969da', '#cf222e', '#1a7f37', '#8250df', '#bc4c00', '#0550ae', '#bf3989'];

function drawChart(versions, lines, description) {
  const canvas = $('chart');
  canvas.setAttribute('aria-label', description);
  state.chart?.destroy();
  state.chart = new window.Chart(canvas, {
    type: 'line',
    data: {
      labels: versions,
      datasets: lines.map((line, index) => ({
        label: line.label,
        data: line.values,
        borderColor: PALETTE[index % PALETTE.length],
        backgroundColor: PALETTE[index % PALETTE.length],
        stepped: 'before',
        pointRadius: 4,
        pointHoverRadius: 6,
      })),
    },
    options: {
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: 'nearest', intersect: false },
      scales: { y: { beginAtZero: true, title: { display: true, text: 'per month' } } },
      onClick: (_event, elements) => {
        const index = elements[0]?.index;
        if (index !== undefined) act(() => compareWithPrevious(versions[index]));
      },
    },
  });
}

function drawTable(versions, lines, caption) {
  const table = $('chart-table');
  const header = element('tr', {}, [
    element('th', { scope: 'col', textContent: 'Version' }),
    ...lines.map((line) => element('th', { scope: 'col', textContent: line.label })),
  ]);
  const rows = versions.map((version, index) =>
    element('tr', {}, [
      element('th', { scope: 'row', textContent: version }),
      ...lines.map((line) =>
        element('td', {
          className: 'number',
          textContent: line.values[index] === null ? '—' : String(line.values[index]),
        }),
      ),
    ]),
  );
  table.replaceChildren(
    element('caption', { textContent: caption }),
    element('thead', {}, [header]),
    element('tbody', {}, rows),
  );
}

async function openPage(slug) {
  const versions = (await apiGet(`/pricing/${encodeURIComponent(slug)}/versions`)).versions;
  state.page = { slug, versions };
  $('pricing-heading').textContent = `Pricing of ${slug}`;
  $('diff').replaceChildren();
  $('files').hidden = true;
  fillVersionPickers(versions);
  listVersions(versions);
  $('pricing').hidden = false;
  await drawTimeline();
}

async function drawTimeline() {
  const { slug, versions } = state.page;
  const currency = $('currency').value;
  if (versions.length === 0) {
    state.chart?.destroy();
    state.chart = null;
    $('chart').setAttribute('aria-label', `No pricing extraction of ${slug} yet`);
    $('series-summary').textContent = `${slug} has no pricing extraction yet.`;
    $('chart-table').replaceChildren();
    return;
  }
  const { byVersion, unconverted } = await plansByVersion(slug, versions, currency);
  const lines = timeline(versions, byVersion, currency);
  offerCurrencies(lines.map((line) => line.unit));
  const units = [...new Set(lines.map((line) => line.unit))].join(', ') || 'no currency';
  const description =
    `Lowest monthly equivalent per plan of ${slug}, in ${units}, ` +
    `over its ${versions.length} pricing ${versions.length === 1 ? 'version' : 'versions'} ` +
    `(${versions[0]} to ${versions.at(-1)})`;
  drawChart(versions, lines, description);
  drawTable(versions, lines, description);
  $('chart-caption').textContent = description;
  $('series-summary').textContent =
    unconverted > 0
      ? `${unconverted} ${unconverted === 1 ? 'charge has' : 'charges have'} no exchange rate ` +
        `into ${currency} and ${unconverted === 1 ? 'is' : 'are'} left out.`
      : '';
}

/** The currency picker offers the usual three and every currency the data is captured in. */
function offerCurrencies(currencies) {
  const picker = $('currency');
  const offered = new Set([...picker.options].map((option) => option.value));
  for (const currency of currencies) {
    if (!offered.has(currency)) {
      picker.append(element('option', { value: currency, textContent: currency }));
      offered.add(currency);
    }
  }
}

// ------------------------------------------------------------------ versions, diff, files

function listVersions(versions) {
  const list = $('versions');
  list.replaceChildren(
    ...versions.map((version) =>
      choiceButton(versionLabel(version), (button) => {
        markCurrent(list, button);
        return showFiles(version);
      }),
    ),
  );
}

function fillVersionPickers(versions) {
  const options = () =>
    versions.map((version) => element('option', { value: version, textContent: version }));
  $('from-version').replaceChildren(...options());
  $('to-version').replaceChildren(...options());
  $('from-version').value = versions.at(-2) ?? versions[0] ?? '';
  $('to-version').value = versions.at(-1) ?? '';
}

/** A chart point: what changed at that version, against the one before it. */
async function compareWithPrevious(version) {
  const { versions } = state.page;
  const index = versions.indexOf(version);
  $('from-version').value = versions[Math.max(index - 1, 0)];
  $('to-version').value = version;
  await showDiff();
}

/** What a changed value looks like in a cell: numbers and text as they are, objects as JSON. */
function shownValue(value) {
  if (value === null || value === undefined) return 'none';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Where a change is: its plan, then its charge or discount, then the field. */
function changePlace(change) {
  const parts = [`plan ${change.plan}`];
  if (change.charge)
    parts.push(`charge “${change.charge.display_name}” (${change.charge.billing})`);
  if (change.discount) parts.push(`discount ${change.discount}`);
  if (change.field) parts.push(change.field);
  return parts.join(', ');
}

async function showDiff() {
  const { slug } = state.page;
  const from = $('from-version').value;
  const to = $('to-version').value;
  const diff = await apiGet(`/pricing/${encodeURIComponent(slug)}/diff`, { from, to });
  const target = $('diff');
  if (diff.count === 0) {
    target.replaceChildren(element('p', { textContent: `No change from ${from} to ${to}.` }));
    return;
  }
  const rows = diff.changes.map((change) =>
    element('tr', {}, [
      element('td', {}, [
        element('strong', { textContent: change.event_type.replaceAll('_', ' ') }),
        element('br'),
        changePlace(change),
      ]),
      element('td', {}, [
        element('del', {}, [element('code', { textContent: shownValue(change.old_value) })]),
      ]),
      element('td', {}, [
        element('ins', {}, [element('code', { textContent: shownValue(change.new_value) })]),
      ]),
    ]),
  );
  target.replaceChildren(
    element('table', { className: 'diff' }, [
      element('caption', {
        textContent: `${diff.count} ${diff.count === 1 ? 'change' : 'changes'} from ${from} to ${to}`,
      }),
      element('thead', {}, [
        element('tr', {}, [
          element('th', { scope: 'col', textContent: 'Change' }),
          element('th', { scope: 'col', textContent: `Old (${from})` }),
          element('th', { scope: 'col', textContent: `New (${to})` }),
        ]),
      ]),
      element('tbody', {}, rows),
    ]),
  );
}

const FILE_LINKS = [
  ['markdown_url', 'Markdown'],
  ['html_url', 'HTML'],
  ['ocr_url', 'OCR'],
];

/** The protocols a scrape file's URL may have to become a link or an image source. */
const WEB_PROTOCOLS = new Set(['http:', 'https:']);

/**
 * A scrape file's URL as the parser reads it, or null unless it is http(s): a `javascript:` or
 * `data:` URL would run or show something no scraper captured, and the page must not rely on
 * ingest having refused it.
 */
function webAddress(url) {
  try {
    const parsed = new URL(url);
    return WEB_PROTOCOLS.has(parsed.protocol) ? parsed.href : null;
  } catch {
    return null;
  }
}

function fileLink(file, field, label) {
  const url = file[field];
  if (url === null) return element('li', { textContent: `${label}: not captured` });
  const href = webAddress(url);
  if (href === null) return element('li', { textContent: `${label}: not a web address` });
  return element('li', {}, [
    element('a', { href, textContent: label, rel: 'noopener noreferrer', target: '_blank' }),
  ]);
}

function fileScreenshot(file) {
  if (file.screenshot_url === null)
    return element('p', { textContent: 'Screenshot: not captured' });
  const src = webAddress(file.screenshot_url);
  if (src === null) return element('p', { textContent: 'Screenshot: not a web address' });
  return element('img', {
    src,
    alt: `Screenshot of ${file.page_url} on ${file.version} (${file.scraper})`,
    referrerPolicy: 'no-referrer',
  });
}

function fileCard(file) {
  return element('article', { className: 'file' }, [
    element('h4', { textContent: `${file.scraper}, ${file.page_url}` }),
    element('p', {
      className: 'hint',
      textContent: `score ${file.score}, ${file.valid ? 'valid' : 'not valid'}, ${file.banner_free ? 'no banner' : 'banner shown'}`,
    }),
    fileScreenshot(file),
    element(
      'ul',
      {},
      FILE_LINKS.map(([field, label]) => fileLink(file, field, label)),
    ),
  ]);
}

async function showFiles(version) {
  const { slug } = state.page;
  const answer = await apiGet(
    `/files/${encodeURIComponent(slug)}/version/${encodeURIComponent(version)}`,
  );
  $('files-heading').textContent = `Scrape files of ${slug} on ${versionLabel(version)}`;
  $('files-list').replaceChildren(
    ...(answer.count === 0
      ? [element('p', { textContent: 'No scrape file for this version.' })]
      : answer.files.map(fileCard)),
  );
  $('files').hidden = false;
}

// ------------------------------------------------------------------ wiring

function onSubmit(id, action) {
  $(id).addEventListener('submit', (event) => {
    event.preventDefault();
    act(action);
  });
}

$('api-key').value = storedKey();
// The key typed is the key used, whether or not "Use key" checked it first.
$('api-key').addEventListener('input', () => {
  sessionStorage.setItem(KEY_ITEM, $('api-key').value.trim());
});
onSubmit('key-form', async () => {
  sessionStorage.setItem(KEY_ITEM, $('api-key').value.trim());
  await apiGet('/usage');
});
$('forget-key').addEventListener('click', () => {
  sessionStorage.removeItem(KEY_ITEM);
  $('api-key').value = '';
  $('credits').textContent = 'Credits left: unknown until the first call.';
  clearProblem();
});
onSubmit('search-form', () => searchCompanies($('search').value.trim()));
onSubmit('diff-form', showDiff);
onSubmit('compare-form', showComparison);
$('currency').addEventListener('change', () => act(drawTimeline));
