/**
 * The explorer's page and styles. The page is a shell: assets/explorer.js fills it with what the
 * API answers, after the visitor gives a key. No inline script or style: the page's
 * Content-Security-Policy allows this origin's files only.
 */
/** The currencies both the comparison and the chart may convert into, as a select's options. */
const CURRENCY_OPTIONS = [
  '<option value="">As captured</option>',
  ...['USD', 'EUR', 'GBP'].map((code) => `<option value="${code}">${code}</option>`),
].join('\n        ');

export const EXPLORER_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pricing explorer</title>
<link rel="stylesheet" href="/explorer/assets/explorer.css">
<script src="/explorer/assets/chart.umd.min.js" defer></script>
<script src="/explorer/assets/explorer.js" type="module"></script>
</head>
<body>
<header>
  <h1>Pricing explorer</h1>
  <p>Search companies, set up to four side by side, follow their prices over time, compare two
  versions and open the scrape files. Every lookup is an ordinary API call made with your key and
  counted against its credits.</p>
  <form id="key-form" class="row">
    <label for="api-key">API key <span class="hint">(kept in this tab only)</span></label>
    <input id="api-key" name="api-key" type="password" autocomplete="off" spellcheck="false" required>
    <button type="submit">Use key</button>
    <button type="button" id="forget-key">Forget key</button>
  </form>
  <p id="credits" role="status" aria-live="polite">Credits left: unknown until the first call.</p>
  <p id="problem" role="alert" hidden></p>
</header>
<main>
  <section aria-labelledby="search-heading">
    <h2 id="search-heading">Companies</h2>
    <form id="search-form" role="search" class="row">
      <label for="search">Search companies</label>
      <input id="search" name="search" type="search" placeholder="name or slug" autocomplete="off">
      <button type="submit">Search</button>
    </form>
    <p id="search-summary" hidden></p>
    <ul id="results" class="choices"></ul>
  </section>
  <section id="compare" aria-labelledby="compare-heading" hidden>
    <h2 id="compare-heading">Compare companies</h2>
    <p class="hint">Up to four companies, picked with their “Add to comparison” buttons: each
    company's pricing page (its primary or only one) side by side, with its entry price.</p>
    <ul id="compare-picks" class="choices"></ul>
    <p id="compare-note" role="status" aria-live="polite"></p>
    <form id="compare-form" class="row">
      <label for="compare-as-of">As of <span class="hint">(YYYYMMDD; empty: today)</span></label>
      <input id="compare-as-of" type="text" inputmode="numeric" pattern="[0-9]{8}" maxlength="8" placeholder="YYYYMMDD" autocomplete="off">
      <label for="compare-currency">Comparison currency</label>
      <select id="compare-currency">
        ${CURRENCY_OPTIONS}
      </select>
      <button type="submit">Show side by side</button>
    </form>
    <div id="comparison" class="comparison" aria-live="polite"></div>
  </section>
  <section id="company" aria-labelledby="company-heading" hidden>
    <h2 id="company-heading"></h2>
    <p id="company-summary"></p>
    <ul id="pages" class="choices"></ul>
  </section>
  <section id="pricing" aria-labelledby="pricing-heading" hidden>
    <h2 id="pricing-heading"></h2>
    <div class="row">
      <label for="currency">Currency</label>
      <select id="currency">
        ${CURRENCY_OPTIONS}
      </select>
    </div>
    <p id="series-summary"></p>
    <figure>
      <div class="chart"><canvas id="chart" role="img"></canvas></div>
      <figcaption id="chart-caption"></figcaption>
    </figure>
    <details id="chart-data">
      <summary>The chart's data as a table</summary>
      <div class="scroll"><table id="chart-table"></table></div>
    </details>
    <h3>Versions</h3>
    <p class="hint">Open a version to see its scrape files; click a point of the chart to compare
    it with the version before.</p>
    <ul id="versions" class="choices versions"></ul>
    <h3 id="diff-heading">Compare two versions</h3>
    <form id="diff-form" class="row">
      <label for="from-version">From version</label>
      <select id="from-version"></select>
      <label for="to-version">To version</label>
      <select id="to-version"></select>
      <button type="submit">Compare</button>
    </form>
    <div id="diff" aria-live="polite"></div>
    <section id="files" aria-labelledby="files-heading" hidden>
      <h3 id="files-heading"></h3>
      <div id="files-list"></div>
    </section>
  </section>
</main>
</body>
</html>
`;

export const EXPLORER_STYLES = `
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { font: 16px/1.5 system-ui, sans-serif; color: #1b1f24; margin: 0 auto; max-width: 72rem; padding: 1rem; overflow-wrap: anywhere; }
h1 { margin: 0 0 .5rem; font-size: 1.75rem; }
h2 { margin: 1.5rem 0 .5rem; font-size: 1.35rem; }
h3 { margin: 1.25rem 0 .5rem; font-size: 1.1rem; }
.row { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .5rem 0; }
.row input { flex: 1 1 14rem; min-width: 0; }
input, select, button { font: inherit; padding: .35rem .6rem; border: 1px solid #8c959f; border-radius: 6px; max-width: 100%; }
button { background: #f6f8fa; cursor: pointer; }
button:hover { background: #eaeef2; }
:focus-visible { outline: 3px solid #0969da; outline-offset: 2px; }
.hint { color: #57606a; font-size: .9rem; }
#credits { font-weight: 600; }
#problem { background: #ffebe9; border: 1px solid #cf222e; color: #82071e; padding: .5rem .75rem; border-radius: 6px; }
.choices { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .5rem; }
.choices button[aria-current="true"] { background: #ddf4ff; border-color: #0969da; }
.versions button { font-variant-numeric: tabular-nums; }
figure { margin: 0; }
.chart { position: relative; width: 100%; height: 22rem; }
.chart canvas { cursor: pointer; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #d0d7de; padding: .25rem .5rem; text-align: left; vertical-align: top; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding: .25rem 0; }
.diff { table-layout: fixed; }
.diff code { white-space: pre-wrap; overflow-wrap: anywhere; }
ins, mark { background: #dafbe1; color: #116329; text-decoration: none; font-weight: 600; }
del { background: #ffebe9; color: #82071e; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.choices .pick { display: flex; gap: .25rem; align-items: center; }
.row #compare-as-of { flex: 0 1 8rem; }
.comparison { display: grid; grid-template-columns: repeat(auto-fit, minmax(13rem, 1fr)); gap: .75rem; }
.compared { border: 1px solid #d0d7de; border-radius: 6px; padding: .75rem; min-width: 0; }
.compared h3 { margin-top: 0; }
.compared .entry { font-size: 1.1rem; }
.compared table { font-size: .95rem; overflow-wrap: break-word; }
.compared td.number { white-space: nowrap; }
.file { border: 1px solid #d0d7de; border-radius: 6px; padding: .75rem; margin: .75rem 0; }
.file img { display: block; max-width: 100%; height: auto; border: 1px solid #d0d7de; }
.file ul { padding-left: 1.25rem; }
@media (max-width: 40rem) {
  body { padding: .75rem; }
  .chart { height: 16rem; }
}
`;
