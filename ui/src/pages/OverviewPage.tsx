import { useMemo } from 'react';
import { Link } from 'wouter';
import { useApi } from '../api/useApi';
import type { Overview } from '../api/types';
import { AsyncView, Empty } from '../components/Async';
import { Chart, type ChartOption } from '../components/Chart';
import { PeriodPicker } from '../components/Period';
import { TableHead } from '../components/TableHead';
import { tooltipHtml } from '../lib/escape';
import { count, duration } from '../lib/format';
import { link } from '../lib/urlState';
import { usePeriod } from '../lib/usePeriod';

function Stat({
  label,
  value,
  note,
  testId,
}: {
  label: string;
  value: string;
  note?: string;
  testId: string;
}) {
  return (
    <div className="stat" data-testid={testId}>
      <div className="stat-value">{value}</div>
      <div className="stat-label">{label}</div>
      {note && <div className="muted">{note}</div>}
    </div>
  );
}

export function savingsOption(o: Overview): ChartOption {
  const top = o.saved.top;
  return {
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      formatter: (ps: { dataIndex: number }[]) => {
        const t = top[ps[0]?.dataIndex ?? 0];
        return t
          ? tooltipHtml(t.jobKey, [
              ['baseline wall', duration(t.baselineWallMs)],
              ['current wall', duration(t.currentWallMs)],
              ['wall saved', duration(t.wallMsSaved)],
              ['blocked saved', duration(t.blockedMsSaved)],
            ])
          : '';
      },
    },
    legend: { top: 0 },
    grid: { left: 60, right: 20, top: 36, bottom: 70 },
    xAxis: {
      type: 'category',
      data: top.map((t) => t.jobKey),
      axisLabel: { interval: 0, rotate: 20, width: 140, overflow: 'truncate' },
    },
    yAxis: { type: 'value', name: 'seconds' },
    series: [
      { name: 'Baseline wall (s)', type: 'bar', data: top.map((t) => t.baselineWallMs / 1000) },
      { name: 'Current wall (s)', type: 'bar', data: top.map((t) => t.currentWallMs / 1000) },
      { name: 'Blocked saved (s)', type: 'bar', data: top.map((t) => t.blockedMsSaved / 1000) },
    ],
  };
}

function OverviewView({ o }: { o: Overview }) {
  const option = useMemo(() => savingsOption(o), [o]);
  return (
    <>
      <div className="stats" aria-label="Tuning">
        <Stat
          testId="jobs-tuned"
          label="jobs tuned"
          value={count(o.jobs.tuned)}
          note={`of ${count(o.jobs.total)} jobs`}
        />
        <Stat testId="jobs-converged" label="converged" value={count(o.jobs.converged)} />
        <Stat testId="jobs-frozen" label="frozen" value={count(o.jobs.frozen)} />
        <Stat testId="rollbacks" label="regressions rolled back" value={count(o.rollbacks)} />
        <Stat testId="wall-saved" label="wall time saved" value={duration(o.saved.wallMs)} />
        <Stat
          testId="blocked-saved"
          label="shuffle-read blocked time saved"
          value={duration(o.saved.blockedMs)}
        />
      </div>
      <div className="stats" aria-label="ESS and push tier">
        <Stat
          testId="ess-abnormal"
          label="ESS nodes abnormal now"
          value={o.ess ? `${count(o.ess.nodesAbnormal)} / ${count(o.ess.nodes)}` : '—'}
        />
        <Stat testId="apps-held" label="apps held" value={count(o.ess?.appsHeld)} />
        <Stat testId="tier-admissions" label="push-tier admissions" value={count(o.tier.admissions)} />
        <Stat testId="tier-fallbacks" label="fallbacks" value={count(o.tier.fallbacks)} />
        <Stat testId="tier-failures" label="failures" value={count(o.tier.failures)} />
      </div>
      <h2>Top jobs by time saved</h2>
      <p className="muted">
        Each job&apos;s latest run in the period against its baseline (its first run before any Sluice
        change).
      </p>
      {o.saved.top.length === 0 ? (
        <Empty>No job with a run in this period has a baseline to compare with yet.</Empty>
      ) : (
        <>
          <Chart
            id="overview-savings"
            label="Baseline against current wall time for the top jobs"
            option={option}
          />
          <table className="data" data-testid="top-jobs">
            <TableHead columns={['Job', 'Baseline wall', 'Current wall', 'Wall saved', 'Blocked saved']} />
            <tbody>
              {o.saved.top.map((t) => (
                <tr key={t.jobKey}>
                  <td className="key">
                    <Link href={link('/job', { jobKey: t.jobKey })}>{t.jobKey}</Link>
                  </td>
                  <td className="num">{duration(t.baselineWallMs)}</td>
                  <td className="num">{duration(t.currentWallMs)}</td>
                  <td className="num">{duration(t.wallMsSaved)}</td>
                  <td className="num">{duration(t.blockedMsSaved)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </>
  );
}

export function OverviewPage() {
  const period = usePeriod();
  const overview = useApi<Overview>('/api/v1/ui/overview', { from: period.from, to: period.to });
  return (
    <section>
      <header className="page-head">
        <h1>What Sluice did</h1>
        <PeriodPicker range={period.range} custom={period.custom} onChange={period.setRange} />
      </header>
      <AsyncView state={overview} what="the overview">
        {(o) => <OverviewView o={o} />}
      </AsyncView>
    </section>
  );
}
