// In-browser load time of the web UI's jobs page and one job's page (headless Chromium via playwright-core), from
// navigation start to the data drawn (table rows in the DOM and, on the job page, the timeline chart's canvas),
// plus the API calls behind them as the browser saw them (Resource Timing) and the gzipped size of the built JS.
//
//   SLUICE_UI_USER=admin SLUICE_UI_PASSWORD=... node bench/ui/ui-load.mjs --url http://127.0.0.1:PORT \
//       --job 'JOB KEY' [--iterations 30] [--assets ui/target/classes/META-INF/resources/ui/assets]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { launch } from '../../ui/e2e/browser.mjs';

const { values: a } = parseArgs({
  options: {
    url: { type: 'string' },
    job: { type: 'string' },
    iterations: { type: 'string', default: '30' },
    assets: { type: 'string', default: 'ui/target/classes/META-INF/resources/ui/assets' },
  },
});
if (!a.url || !a.job) throw new Error('--url and --job are required');
const base = a.url.replace(/\/$/, '');
const n = Number(a.iterations);

// Records, in the page, when each watched selector first appears (performance.now(): ms since navigation start).
const WATCH = () => {
  window.__drawn = {};
  const watch = {
    jobs: '[data-testid=jobs-table] tbody tr',
    runs: '[data-testid=runs-table] tbody tr',
    timeline: '[data-chart=job-timeline] canvas',
  };
  const check = () => {
    for (const [k, sel] of Object.entries(watch)) {
      if (!(k in window.__drawn) && document.querySelector(sel)) window.__drawn[k] = performance.now();
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
};

const pct = (xs, p) => {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const summary = (xs) => ({ n: xs.length, p50: +pct(xs, 50).toFixed(1), p95: +pct(xs, 95).toFixed(1),
  p99: +pct(xs, 99).toFixed(1), max: +Math.max(...xs).toFixed(1) });

async function measure(page, path, keys, apiPath) {
  const drawn = [];
  const api = [];
  for (let i = 0; i < n; i++) {
    await page.goto(base + path, { waitUntil: 'commit' });
    await page.waitForFunction((ks) => ks.every((k) => k in (window.__drawn ?? {})), keys, { timeout: 30_000 });
    const r = await page.evaluate(({ ks, ap }) => ({
      at: Math.max(...ks.map((k) => window.__drawn[k])),
      api: performance.getEntriesByType('resource').filter((e) => e.name.includes(ap))
        .map((e) => e.responseEnd - e.startTime),
    }), { ks: keys, ap: apiPath });
    if (i > 0) { // the first load warms the browser's and the service's caches
      drawn.push(r.at);
      api.push(...r.api);
    }
  }
  return { drawnMs: summary(drawn), apiMs: summary(api) };
}

const b = await launch();
try {
  const page = await b.context.newPage();
  await page.addInitScript(WATCH);
  await page.goto(`${base}/ui/jobs`);
  // the UI redirects to its sign-in page only once the session call has answered 401
  await page.waitForFunction(() => location.pathname === '/ui/signin'
    || document.querySelector('[data-testid=jobs-table] tbody tr'), null, { timeout: 60_000 });
  if (page.url().includes('/ui/signin')) {
    await page.getByLabel('User name').fill(process.env.SLUICE_UI_USER ?? 'admin');
    await page.getByLabel('Password').fill(process.env.SLUICE_UI_PASSWORD ?? '');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/ui\/jobs$/);
  }
  const jobs = await measure(page, '/ui/jobs', ['jobs'], '/api/v1/ui/jobs?');
  const job = await measure(page, `/ui/job?jobKey=${encodeURIComponent(a.job)}`, ['runs', 'timeline'],
    '/api/v1/ui/job?');
  const runs = await page.getByTestId('runs-table').locator('tbody tr').count();
  const total = await (await page.context().request.get(`${base}/api/v1/ui/jobs?size=1`)).json();
  const js = readdirSync(a.assets).filter((f) => f.endsWith('.js'));
  const gz = js.reduce((s, f) => s + gzipSync(readFileSync(join(a.assets, f)), { level: 9 }).length, 0);
  const raw = js.reduce((s, f) => s + readFileSync(join(a.assets, f)).length, 0);
  console.log(JSON.stringify({ jobsInStore: total.total, runsOnJobPage: runs, iterations: n - 1,
    jobsPage: jobs, jobPage: job, jsBytes: raw, jsGzipBytes: gz }, null, 2));
} finally {
  await b.close();
}
