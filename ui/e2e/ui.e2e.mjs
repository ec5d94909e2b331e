// The web UI in real headless Chromium against a running tuner-service filled by a real tuning run.
// Environment: SLUICE_UI_URL (the service), SLUICE_UI_{ADMIN,VIEWER}_{USER,PASSWORD}, SLUICE_UI_JOB_KEY (a tuned
// job with several runs), SLUICE_UI_XSS_JOB_KEY (a stored job whose app name and conf hold HTML/JS that
// set window.__sluiceXss if they ever ran), SLUICE_UI_GATE_PUBLISHED (a JSON file: what the ESS gates published to
// sluice.throttle-events, folded per application and node, read back from Kafka), SLUICE_UI_SCREENSHOTS (default
// target/screenshots).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { chartData, launch } from './browser.mjs';

const env = (k, d) => {
  const v = process.env[k] ?? d;
  if (v === undefined) throw new Error(`${k} must be set`);
  return v;
};
const BASE = env('SLUICE_UI_URL').replace(/\/$/, '');
const JOB = env('SLUICE_UI_JOB_KEY');
const XSS_JOB = env('SLUICE_UI_XSS_JOB_KEY');
const GATE = JSON.parse(readFileSync(env('SLUICE_UI_GATE_PUBLISHED'), 'utf8'));
const SHOTS = env('SLUICE_UI_SCREENSHOTS', 'target/screenshots');
const ADMIN = { user: env('SLUICE_UI_ADMIN_USER', 'admin'), password: env('SLUICE_UI_ADMIN_PASSWORD') };
const VIEWER = { user: env('SLUICE_UI_VIEWER_USER', 'viewer'), password: env('SLUICE_UI_VIEWER_PASSWORD') };
const TIMEOUT = 20_000;
const q = (v) => encodeURIComponent(v);

mkdirSync(SHOTS, { recursive: true });

/** A signed-in browser (its own profile) for one user. */
async function signedIn(who) {
  const b = await launch();
  const page = await b.context.newPage();
  page.setDefaultTimeout(TIMEOUT);
  page.on('dialog', (d) => {
    page.__dialogs = (page.__dialogs ?? 0) + 1;
    void d.dismiss();
  });
  await page.goto(`${BASE}/ui/jobs`);
  await page.waitForURL(/\/ui\/signin\?next=/);
  assert.equal(await page.getByTestId('who').count(), 0, 'nobody is signed in before the form is sent');
  await page.getByLabel('User name').fill(who.user);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/ui\/jobs$/);
  await page.getByTestId('who').waitFor();
  return { ...b, page };
}

async function api(page, path) {
  const r = await page.context().request.get(BASE + path);
  assert.equal(r.status(), 200, `${path}: ${await r.text()}`);
  return r.json();
}

async function shot(page, name) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** The text of every cell of a table, row by row (header excluded). */
async function cells(page, testId) {
  return page
    .getByTestId(testId)
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent.trim())));
}

describe('Sluice web UI', { concurrency: false }, () => {
  let viewer;
  let admin;

  before(async () => {
    viewer = await signedIn(VIEWER);
    admin = await signedIn(ADMIN);
  });

  after(async () => {
    await viewer?.close();
    await admin?.close();
  });

  test('a wrong password is refused with a clear message and nobody is signed in', async () => {
    const b = await launch();
    try {
      const page = await b.context.newPage();
      page.setDefaultTimeout(TIMEOUT);
      await page.goto(`${BASE}/ui/tier`);
      await page.waitForURL(/\/ui\/signin\?next=%2Ftier$/);
      await page.getByLabel('User name').fill(VIEWER.user);
      await page.getByLabel('Password').fill(`${VIEWER.password}-wrong`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      assert.match(await page.getByTestId('api-error').textContent(), /Wrong user name or password/);
      assert.equal(await page.getByTestId('who').count(), 0);
    } finally {
      await b.close();
    }
  });

  test('keyboard users can skip to the content and the header shows who is signed in', async () => {
    const { page } = viewer;
    // a fresh page load: focus starts at the document, not where the sign-in form left it
    await page.goto(`${BASE}/ui/`);
    await page.getByTestId('who').waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Skip to content');
    assert.match(await page.getByTestId('who').textContent(), /viewer \(VIEWER\)/);
  });

  test('overview shows the fleet figures of the period and the top jobs chart', async () => {
    const { page } = viewer;
    await page.goto(`${BASE}/ui/?range=30d`);
    await page.getByTestId('jobs-tuned').waitFor();
    const to = Date.now();
    const o = await api(page, `/api/v1/ui/overview?from=${to - 30 * 86_400_000}&to=${to}`);
    assert.ok(o.jobs.total >= 2, `the tuned job and the hostile one in ${JSON.stringify(o.jobs)}`);
    assert.equal(
      (await page.getByTestId('jobs-tuned').locator('.stat-value').textContent()).replace(/,/g, ''),
      String(o.jobs.tuned),
    );
    assert.equal(
      await page.getByTestId('jobs-tuned').locator('.muted').textContent(),
      `of ${o.jobs.total} jobs`,
    );
    assert.equal(
      (await page.getByTestId('rollbacks').locator('.stat-value').textContent()).replace(/,/g, ''),
      String(o.rollbacks),
    );
    // the gates' part: every node that published, and the applications they held
    assert.equal(o.ess.nodes, GATE.nodes.length);
    assert.equal(
      (await page.getByTestId('apps-held').locator('.stat-value').textContent()).replace(/,/g, ''),
      String(GATE.apps.filter((a) => a.held > 0).length),
    );
    assert.ok(o.saved.top.length >= 1, 'the tuned job has a baseline and a current run');
    await page.getByTestId('top-jobs').waitFor();
    const chart = await chartData(page, 'overview-savings');
    assert.deepEqual(
      chart.categories[0],
      o.saved.top.map((t) => t.jobKey),
    );
    assert.deepEqual(
      chart.series[0].data,
      o.saved.top.map((t) => t.baselineWallMs / 1000),
    );
    assert.deepEqual(
      chart.series[1].data,
      o.saved.top.map((t) => t.currentWallMs / 1000),
    );
    await shot(page, 'overview');
  });

  test('jobs list: search, filters and sorting live in the URL and survive a reload', async () => {
    const { page } = viewer;
    const detail = await api(page, `/api/v1/ui/job?jobKey=${q(JOB)}`);
    await page.goto(`${BASE}/ui/jobs`);
    await page.getByTestId('jobs-table').waitFor();
    await shot(page, 'jobs');
    await page.getByTestId('filter-cluster').selectOption(detail.cluster);
    await page.waitForURL((u) => u.searchParams.get('cluster') === detail.cluster);
    await page.getByTestId('jobs-table').waitFor();
    let rows = await cells(page, 'jobs-table');
    assert.ok(rows.length >= 1);
    assert.ok(
      rows.every((r) => r[1] === detail.cluster),
      JSON.stringify(rows),
    );
    await page.getByTestId('filter-user').selectOption(detail.user);
    await page.waitForURL((u) => u.searchParams.get('user') === detail.user);
    await page.getByTestId('jobs-table').waitFor();
    rows = await cells(page, 'jobs-table');
    assert.ok(
      rows.every((r) => r[1] === detail.cluster && r[3] === detail.user),
      JSON.stringify(rows),
    );
    await page.getByTestId('filter-q').fill(JOB);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL((u) => u.searchParams.get('q') === JOB);
    await page.getByRole('button', { name: /^Runs/ }).click();
    await page.waitForURL((u) => u.searchParams.get('sort') === 'runs');
    await page.reload();
    await page.getByTestId('jobs-table').waitFor();
    assert.equal(await page.getByTestId('filter-cluster').inputValue(), detail.cluster);
    assert.equal(await page.getByTestId('filter-user').inputValue(), detail.user);
    assert.equal(await page.getByTestId('filter-q').inputValue(), JOB);
    assert.equal(await page.locator('th[aria-sort]').textContent(), 'Runs ▼');
    rows = await cells(page, 'jobs-table');
    assert.ok(
      rows.some((r) => r[0] === JOB),
      `the tuned job is listed: ${JSON.stringify(rows)}`,
    );
    const row = rows.find((r) => r[0] === JOB);
    assert.equal(row[7], String(detail.runs.length));
    await page.getByRole('link', { name: JOB, exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/ui/job' && u.searchParams.get('jobKey') === JOB);
  });

  test('a job: timeline with change markers, recommendations with fate, state history', async () => {
    const { page } = viewer;
    const job = await api(page, `/api/v1/ui/job?jobKey=${q(JOB)}`);
    assert.ok(job.runs.length >= 3, `runs: ${job.runs.length}`);
    await page.goto(`${BASE}/ui/job?jobKey=${q(JOB)}`);
    await page.getByTestId('runs-table').waitFor();
    assert.equal(await page.getByTestId('job-key').textContent(), JOB);
    const chart = await chartData(page, 'job-timeline');
    assert.ok(chart, 'the timeline chart exists');
    assert.deepEqual(
      chart.series[0].data,
      job.runs.map((r) => Math.round(r.wallMs) / 1000),
    );
    assert.deepEqual(
      chart.series[1].data,
      job.runs.map((r) => Math.round(r.blockedMs) / 1000),
    );
    const changed = job.runs.flatMap((r, i) => (r.changed.length ? [i] : []));
    assert.ok(changed.length >= 1, 'Sluice changed a setting on some run');
    assert.deepEqual(
      chart.series[0].markPoint.map((m) => m.coord[0]),
      changed,
    );
    assert.equal(await page.getByTestId('runs-table').locator('tbody tr').count(), job.runs.length);
    const recs = await cells(page, 'recommendations');
    const newestFirst = [...job.recommendations].reverse().slice(0, 20); // the page shows the newest 20
    assert.equal(recs.length, newestFirst.length);
    const WORDS = { KEPT: 'kept', ROLLED_BACK: 'rolled back', SUPERSEDED: 'superseded', PENDING: 'pending' };
    newestFirst.forEach((r, i) => {
      assert.equal(recs[i][1], r.key);
      assert.ok(
        recs[i][5].replace(/^\W+/, '').startsWith(WORDS[r.fate]),
        `fate of ${r.key} in words: ${recs[i][5]}`,
      );
    });
    assert.ok(
      job.recommendations.some((r) => r.fate === 'KEPT'),
      'a kept recommendation',
    );
    // the harmful operator trial's run: its verdict reads "rolled back" in the runs table
    const rolledBack = job.runs.findIndex((r) => r.decision === 'ROLLED_BACK');
    assert.ok(rolledBack >= 0, `a rolled-back run in ${job.runs.map((r) => r.decision)}`);
    const runRows = await cells(page, 'runs-table');
    assert.match(runRows[rolledBack][12], /rolled back/);
    assert.equal(await page.getByTestId('state-history').locator('li').count(), job.stateHistory.length);
    await shot(page, 'job');
  });

  test('the diff between two runs shows exactly the Spark properties that differ', async () => {
    const { page } = viewer;
    const job = await api(page, `/api/v1/ui/job?jobKey=${q(JOB)}`);
    const a = job.runs[0];
    const b = job.runs.find((r) => r.changed.length > 0 && r.appId !== a.appId);
    // the oracle reads both runs' confs unredacted (as admin); a viewer sees the same keys, some values hidden
    const confOf = async (r) =>
      (
        await api(
          admin.page,
          `/api/v1/ui/run?cluster=${q(r.cluster)}&appId=${q(r.appId)}&attemptId=${q(r.attemptId ?? '')}`,
        )
      ).conf;
    const [ca, cb] = [await confOf(a), await confOf(b)];
    const expected = [...new Set([...Object.keys(ca), ...Object.keys(cb)])]
      .filter((k) => ca[k] !== cb[k])
      .sort();
    assert.ok(expected.includes('spark.sql.shuffle.partitions'), `differing keys ${expected}`);
    // pick A and B with the keyboard-reachable radio buttons, then check the URL carries them
    await page.goto(`${BASE}/ui/job?jobKey=${q(JOB)}`);
    await page.getByLabel(`A: ${a.appId}`).check();
    await page.getByLabel(`B: ${b.appId}`).check();
    await page.getByTestId('diff-table').waitFor();
    const shown = (await cells(page, 'diff-table')).map((r) => r[0]);
    assert.deepEqual(shown, expected);
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('a'), a.appId);
    assert.equal(url.searchParams.get('b'), b.appId);
    // the same view from a pasted link
    await page.goto(url.toString());
    await page.getByTestId('diff-table').waitFor();
    assert.deepEqual(
      (await cells(page, 'diff-table')).map((r) => r[0]),
      expected,
    );
    const partitions = (await cells(page, 'diff-table')).find((r) => r[0] === 'spark.sql.shuffle.partitions');
    assert.equal(partitions[3], cb['spark.sql.shuffle.partitions'], 'tunable keys are readable by a viewer');
  });

  test('a run: stages table and charts, diagnoses with severity in words, settings and tier', async () => {
    const { page } = viewer;
    const job = await api(page, `/api/v1/ui/job?jobKey=${q(JOB)}`);
    const r = job.runs[0];
    const path = `/ui/run?cluster=${q(r.cluster)}&appId=${q(r.appId)}&attemptId=${q(r.attemptId ?? '')}`;
    const run = await api(page, `/api/v1/ui${path.slice(3)}`);
    await page.goto(BASE + path);
    await page.getByTestId('stages').waitFor();
    assert.equal(await page.getByTestId('run-app').textContent(), r.appId);
    assert.equal(await page.getByTestId('stages').locator('tbody tr').count(), run.stages.length);
    const bytes = await chartData(page, 'run-stage-bytes');
    assert.deepEqual(
      bytes.series[0].data,
      run.stages.map((s) => (s.shuffleRemoteBytesRead + s.shuffleLocalBytesRead) / 1048576),
    );
    const blocks = await chartData(page, 'run-stage-blocks');
    assert.deepEqual(
      blocks.series[0].data,
      run.stages.map((s) => s.shuffleRemoteBlocksFetched + s.shuffleLocalBlocksFetched),
    );
    assert.deepEqual(
      blocks.series[1].data,
      run.stages.map((s) => s.avgRemoteBlockBytes / 1024),
    );
    const wait = await chartData(page, 'run-stage-wait');
    assert.deepEqual(
      wait.series[0].data,
      run.stages.map((s) => s.shuffleFetchWaitMs),
    );
    assert.ok(run.diagnoses.length >= 1, 'the untuned first run has a diagnosis');
    const diag = await cells(page, 'diagnoses');
    assert.deepEqual(
      diag.map((d) => d[0].replace(/^\W+\s*/, '')),
      run.diagnoses.map((d) => d.severity),
    );
    assert.equal(await page.getByTestId('conf').locator('tbody tr').count(), Object.keys(run.conf).length);
    assert.equal(await page.getByTestId('run-tier').textContent(), run.run.tier ?? 'ESS');
    await shot(page, 'run');
  });

  test('ESS throttling shows what the gates published: nodes, episodes, held apps by priority', async () => {
    const { page } = viewer;
    await page.goto(`${BASE}/ui/throttle?range=30d`);
    await page.getByTestId('throttle-apps').waitFor();
    await page.getByTestId('throttle-nodes').waitFor();
    assert.equal(await page.getByTestId('api-error').count(), 0);
    // nodes: every node that published is listed, with as many abnormal episodes as its stateChanged events opened
    const nodeRows = await cells(page, 'throttle-nodes');
    assert.deepEqual(nodeRows.map((r) => r[0]).sort(), [...GATE.nodes].sort());
    for (const [node, episodes] of Object.entries(GATE.episodes)) {
      assert.equal(nodeRows.find((r) => r[0] === node)[5], String(episodes), `episodes of ${node}`);
    }
    const episodeChart = await chartData(page, 'throttle-nodes');
    const names = episodeChart.yCategories[0];
    const drawn = {};
    for (const d of episodeChart.series[0].data)
      drawn[names[d.value[0]]] = (drawn[names[d.value[0]]] ?? 0) + 1;
    assert.deepEqual(drawn, Object.fromEntries(Object.entries(GATE.episodes).filter(([, n]) => n > 0)));
    // held and slept applications, by priority: the chart's bars and the table hold exactly the published counts
    const byPriority = [...GATE.apps].sort((x, y) => x.priority - y.priority);
    const apps = await chartData(page, 'throttle-apps');
    const label = (a) => `${a.appId} (priority ${a.priority})`;
    const held = Object.fromEntries(apps.yCategories[0].map((l, i) => [l, apps.series[0].data[i]]));
    const directives = Object.fromEntries(apps.yCategories[0].map((l, i) => [l, apps.series[1].data[i]]));
    assert.deepEqual(held, Object.fromEntries(byPriority.map((a) => [label(a), a.held])));
    assert.deepEqual(directives, Object.fromEntries(byPriority.map((a) => [label(a), a.directives])));
    assert.deepEqual(
      apps.yCategories[0].map((l) => Number(l.match(/priority (-?\d+)\)$/)[1])),
      byPriority.map((a) => a.priority),
      'ordered by priority',
    );
    const appRows = await cells(page, 'throttle-apps');
    for (const a of GATE.apps) {
      const row = appRows.find((r) => r[0] === a.appId);
      assert.ok(row, `${a.appId} in the table`);
      assert.deepEqual(
        [row[1], row[2], row[3].replace(/,/g, ''), row[6].replace(/,/g, '')],
        [a.cluster, String(a.priority), String(a.held), String(a.directives)],
      );
    }
    // holds over time: the held bars add up to every published hold
    const timeline = await chartData(page, 'throttle-timeline');
    assert.equal(
      timeline.series[0].data.reduce((n, [, v]) => n + v, 0),
      GATE.held,
    );
    // the event list pages through every stored event, filtered by type from the URL
    await page.goto(`${BASE}/ui/throttle?range=30d&type=held`);
    await page.getByTestId('throttle-events').waitFor();
    const types = (await cells(page, 'throttle-events')).map((r) => r[2]);
    assert.ok(types.length > 0 && types.every((t) => t === 'held'), JSON.stringify(types));
    await page.goto(`${BASE}/ui/throttle?range=30d`);
    await page.getByTestId('throttle-apps').waitFor();
    await shot(page, 'throttle');
  });

  test('push tier page renders what the store holds', async () => {
    const { page } = viewer;
    await page.goto(`${BASE}/ui/tier`);
    await page.getByRole('heading', { name: 'Audit trail' }).waitFor();
    await page.locator('[data-testid=tier-audit], [data-testid=empty]').first().waitFor();
    assert.equal(await page.getByTestId('api-error').count(), 0);
    await shot(page, 'tier');
  });

  test('a viewer sees no edit control and the API refuses a forced edit', async () => {
    const { page } = viewer;
    await page.goto(`${BASE}/ui/job?jobKey=${q(JOB)}`);
    await page.getByTestId('runs-table').waitFor();
    assert.equal(await page.getByTestId('job-actions').count(), 0);
    assert.equal(await page.getByRole('button', { name: /freeze|trial/i }).count(), 0);
    await page.goto(`${BASE}/ui/tier`);
    await page.getByRole('heading', { name: 'Audit trail' }).waitFor();
    assert.equal(await page.getByTestId('add-rule').count(), 0);
    const statuses = await page.evaluate(async (jobKey) => {
      const xsrf = decodeURIComponent((document.cookie.match(/(?:^|; )XSRF-TOKEN=([^;]*)/) ?? [])[1] ?? '');
      const h = { 'Content-Type': 'application/json', 'X-XSRF-TOKEN': xsrf };
      const freeze = await fetch(`/api/v1/jobs/freeze?jobKey=${encodeURIComponent(jobKey)}`, {
        method: 'POST',
        headers: h,
      });
      const rule = await fetch('/api/v1/tiers/rules/forced-by-viewer', {
        method: 'PUT',
        headers: h,
        body: JSON.stringify({ tier: 'SPARK_PUSH', percent: 100 }),
      });
      return [xsrf.length > 0, freeze.status, rule.status];
    }, JOB);
    assert.deepEqual(statuses, [true, 403, 403], 'with a valid CSRF token, the role is what refuses');
  });

  test('an admin freezes and unfreezes the job from its page', async () => {
    const { page } = admin;
    await page.goto(`${BASE}/ui/job?jobKey=${q(JOB)}`);
    await page.getByTestId('job-actions').waitFor();
    await page.getByTestId('freeze').click();
    await page.getByTestId('unfreeze').waitFor();
    assert.equal((await api(page, `/api/v1/ui/job?jobKey=${q(JOB)}`)).frozen, true);
    await page.getByTestId('unfreeze').click();
    await page.getByTestId('freeze').waitFor();
    assert.equal((await api(page, `/api/v1/ui/job?jobKey=${q(JOB)}`)).frozen, false);
    await page.goto(`${BASE}/ui/tier`);
    await page.getByTestId('add-rule').waitFor();
  });

  test('HTML and JavaScript in stored names and conf values are shown as text and never run', async () => {
    const { page } = admin; // an admin reads every conf value, the hostile one included
    const job = await api(page, `/api/v1/ui/job?jobKey=${q(XSS_JOB)}`);
    await page.goto(`${BASE}/ui/jobs?q=${q(XSS_JOB)}`);
    await page.getByTestId('jobs-table').waitFor();
    assert.ok((await cells(page, 'jobs-table')).some((r) => r[0] === XSS_JOB));
    await page.goto(`${BASE}/ui/job?jobKey=${q(XSS_JOB)}`);
    await page.getByTestId('runs-table').waitFor();
    const r = job.runs[job.runs.length - 1];
    const path = `/ui/run?cluster=${q(r.cluster)}&appId=${q(r.appId)}&attemptId=${q(r.attemptId ?? '')}`;
    const run = await api(page, `/api/v1/ui${path.slice(3)}`);
    assert.match(run.run.name, /[<>]/, 'the stored app name holds markup');
    await page.goto(BASE + path);
    await page.getByTestId('conf').waitFor();
    assert.equal(await page.getByTestId('run-name').textContent(), run.run.name);
    const hostile = Object.entries(run.conf).filter(([, v]) => /<script|onerror/i.test(v));
    assert.ok(hostile.length >= 1, 'a conf value holds markup');
    const confRows = await cells(page, 'conf');
    for (const [k, v] of hostile) {
      assert.ok(
        confRows.some((row) => row[0] === k && row[1] === v),
        `${k} shown as text`,
      );
    }
    // hover the charts so their tooltips (HTML built by the UI) render the hostile values too
    for (const id of ['run-stage-bytes', 'run-stage-blocks', 'run-stage-wait']) {
      const box = await page.locator(`[data-chart="${id}"]`).boundingBox();
      if (box) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    }
    assert.equal(await page.evaluate(() => window.__sluiceXss), undefined, 'no injected script ran');
    assert.equal(await page.locator('main img, main script').count(), 0);
    assert.equal(page.__dialogs ?? 0, 0);
  });

  test('the API or a store being down shows a clear message, not a blank page', async () => {
    const { page } = viewer;
    await page.route('**/api/v1/ui/jobs?**', (route) => route.abort('connectionrefused'));
    await page.goto(`${BASE}/ui/jobs`);
    const down = page.getByTestId('api-error');
    await down.waitFor();
    assert.equal(await down.getAttribute('data-kind'), 'unreachable');
    assert.match(await down.textContent(), /The Sluice API is down/);
    await shot(page, 'api-down');
    await page.unroute('**/api/v1/ui/jobs?**');
    await page.route('**/api/v1/ui/job?**', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({
          status: 503,
          error: 'Service Unavailable',
          message: 'history store (H2) is unavailable',
        }),
      }),
    );
    await page.goto(`${BASE}/ui/job?jobKey=${q(JOB)}`);
    await page.getByTestId('api-error').waitFor();
    assert.equal(await page.getByTestId('api-error').getAttribute('data-kind'), 'unavailable');
    assert.match(await page.getByTestId('api-error').textContent(), /history store \(H2\) is unavailable/);
    await page.unroute('**/api/v1/ui/job?**');
    // and Retry recovers once the API answers again
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByTestId('runs-table').waitFor();
  });
});
