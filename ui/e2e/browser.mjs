// Debian's Chromium driven by playwright-core (no browser download): the flags the project's browser tests use.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.SLUICE_UI_CHROMIUM ?? '/usr/bin/chromium';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

/** A persistent context in a fresh user-data-dir; close() also removes the directory. */
export async function launch() {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-ui-chromium-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1366, height: 800 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The data of an ECharts chart on the page, read from the chart instance itself. */
export async function chartData(page, id) {
  return page.evaluate((chartId) => {
    const el = document.querySelector(`[data-chart="${chartId}"]`);
    const chart = el && window.sluiceEcharts && window.sluiceEcharts.getInstanceByDom(el);
    if (!chart) return null;
    const o = chart.getOption();
    return {
      categories: (o.xAxis ?? []).map((a) => a.data ?? null),
      yCategories: (o.yAxis ?? []).map((a) => a.data ?? null),
      series: o.series.map((s) => ({
        name: s.name,
        type: s.type,
        data: s.data,
        markPoint: s.markPoint && s.markPoint.data ? s.markPoint.data : [],
      })),
    };
  }, id);
}
