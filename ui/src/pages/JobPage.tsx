import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import { useApi } from '../api/useApi';
import type { ConfDiff, JobDetail, RecommendationView, RunSummary } from '../api/types';
import { AsyncView, Empty } from '../components/Async';
import { FateBadge, StateBadge } from '../components/Badges';
import { Chart, type ChartOption } from '../components/Chart';
import { DiffView } from '../components/DiffView';
import { Evidence } from '../components/Evidence';
import { JobActions } from '../components/JobActions';
import { TableHead } from '../components/TableHead';
import { tooltipHtml } from '../lib/escape';
import { bytes, count, duration, instant } from '../lib/format';
import { link } from '../lib/urlState';
import { useQueryState } from '../lib/useQueryState';

const DEFAULTS = { jobKey: '', a: '', b: '' };

/** The timeline across runs; a pin marks every run where Sluice changed a setting. */
export function timelineOption(runs: RunSummary[]): ChartOption {
  const labels = runs.map((r) => instant(r.startTime));
  const secs = (ms: number) => Math.round(ms) / 1000;
  const changedAt = runs.flatMap((r, i) => (r.changed.length > 0 ? [i] : []));
  return {
    tooltip: {
      trigger: 'axis',
      formatter: (ps: { dataIndex: number }[]) => {
        const r = runs[ps[0]?.dataIndex ?? 0];
        if (!r) return '';
        return tooltipHtml(r.appId, [
          ['started', instant(r.startTime)],
          ['wall', duration(r.wallMs)],
          ['blocked', duration(r.blockedMs)],
          ['shuffle read', bytes(r.shuffleReadBytes)],
          ['shuffle write', bytes(r.shuffleWriteBytes)],
          ['spill', bytes(r.spillBytes)],
          ['failed tasks', r.failedTasks],
          ['Sluice changed', r.changed.length ? r.changed.join(', ') : 'nothing'],
        ]);
      },
    },
    legend: { top: 0 },
    grid: { left: 60, right: 70, top: 40, bottom: 60 },
    xAxis: { type: 'category', data: labels, axisLabel: { hideOverlap: true } },
    yAxis: [
      { type: 'value', name: 'seconds' },
      { type: 'value', name: 'MiB', position: 'right' },
    ],
    dataZoom: runs.length > 30 ? [{ type: 'inside' }, { type: 'slider', height: 18, bottom: 8 }] : [],
    series: [
      {
        name: 'Wall time (s)',
        type: 'line',
        data: runs.map((r) => secs(r.wallMs)),
        symbolSize: 7,
        markPoint: {
          symbol: 'pin',
          symbolSize: 34,
          label: { formatter: 'Δ' },
          data: changedAt.map((i) => ({ name: 'changed', coord: [i, secs(runs[i].wallMs)], value: 'Δ' })),
        },
      },
      {
        name: 'Blocked time (s)',
        type: 'line',
        data: runs.map((r) => secs(r.blockedMs)),
        symbol: 'triangle',
      },
      {
        name: 'Shuffle read (MiB)',
        type: 'bar',
        barMaxWidth: 24,
        yAxisIndex: 1,
        data: runs.map((r) => r.shuffleReadBytes / 1048576),
      },
      {
        name: 'Spill (MiB)',
        type: 'bar',
        barMaxWidth: 24,
        yAxisIndex: 1,
        data: runs.map((r) => r.spillBytes / 1048576),
      },
      { name: 'Failed tasks', type: 'scatter', data: runs.map((r) => r.failedTasks), symbol: 'diamond' },
    ],
  };
}

function RunsTable({
  job,
  a,
  b,
  onPick,
}: {
  job: JobDetail;
  a: string;
  b: string;
  onPick: (side: 'a' | 'b', appId: string) => void;
}) {
  return (
    <table className="data" data-testid="runs-table">
      <caption>Runs, oldest first. Pick A and B to compare their settings.</caption>
      <TableHead
        columns={[
          'A',
          'B',
          'Run',
          'Started',
          'Wall',
          'Blocked',
          'Shuffle read',
          'Spill',
          'Failed tasks',
          'Tier',
          'Status',
          'Sluice changed',
          'Verdict',
        ]}
      />
      <tbody>
        {job.runs.map((r) => (
          <tr key={`${r.cluster}/${r.appId}/${r.attemptId}`} data-app={r.appId}>
            <td>
              <input
                type="radio"
                name="diff-a"
                aria-label={`A: ${r.appId}`}
                checked={a === r.appId}
                onChange={() => onPick('a', r.appId)}
              />
            </td>
            <td>
              <input
                type="radio"
                name="diff-b"
                aria-label={`B: ${r.appId}`}
                checked={b === r.appId}
                onChange={() => onPick('b', r.appId)}
              />
            </td>
            <td className="key app">
              <Link href={link('/run', { cluster: r.cluster, appId: r.appId, attemptId: r.attemptId })}>
                {r.appId}
              </Link>
            </td>
            <td className="app">{instant(r.startTime)}</td>
            <td className="num">{duration(r.wallMs)}</td>
            <td className="num">{duration(r.blockedMs)}</td>
            <td className="num">{bytes(r.shuffleReadBytes)}</td>
            <td className="num">{bytes(r.spillBytes)}</td>
            <td className="num">{count(r.failedTasks)}</td>
            <td>{r.tier ?? '—'}</td>
            <td>{r.status}</td>
            <td>
              {r.changed.length ? (
                <>
                  <span aria-hidden="true">Δ </span>
                  {r.changed.join(', ')}
                </>
              ) : (
                '—'
              )}
            </td>
            <td>{r.decision ? <FateBadge fate={r.decision} /> : '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** How many recommendations show before "show all": the newest ones, which are the ones people come for. */
export const RECOMMENDATIONS_SHOWN = 20;

export function Recommendations({ recs }: { recs: RecommendationView[] }) {
  const [all, setAll] = useState(false);
  if (recs.length === 0) return <Empty>Sluice has not recommended anything for this job.</Empty>;
  const newestFirst = [...recs].reverse();
  const shown = all ? newestFirst : newestFirst.slice(0, RECOMMENDATIONS_SHOWN);
  return (
    <>
      <table className="data" data-testid="recommendations">
        <caption>
          Newest first{shown.length < recs.length ? `: ${shown.length} of ${recs.length}` : ''}
        </caption>
        <TableHead columns={['When', 'Setting', 'Change', 'Reason', 'Evidence', 'Fate']} />
        <tbody>
          {shown.map((r, i) => (
            <tr key={`${r.at}-${r.key}-${i}`}>
              <td>
                {instant(r.at)}
                {r.runAppId && <div className="muted">{r.runAppId}</div>}
              </td>
              <td className="key">{r.key}</td>
              <td className="val">
                {r.previous ?? <em>default</em>} → {r.value}
              </td>
              <td>{r.reason}</td>
              <td>
                <Evidence evidence={r.evidence} />
              </td>
              <td>
                <FateBadge fate={r.fate} />
                {r.fateReason && <div className="muted">{r.fateReason}</div>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {shown.length < recs.length && (
        <button type="button" onClick={() => setAll(true)}>
          Show all {recs.length} recommendations
        </button>
      )}
    </>
  );
}

function Diff({ cluster, a, b }: { cluster: string; a: string; b: string }) {
  const diff = useApi<ConfDiff>(a && b ? '/api/v1/ui/diff' : null, { cluster, a, b });
  if (!a || !b) return <Empty>Pick two runs (A and B) in the table to see which settings differ.</Empty>;
  return (
    <AsyncView state={diff} what="the diff">
      {(d) => <DiffView diff={d} />}
    </AsyncView>
  );
}

function JobView({
  job,
  a,
  b,
  setQ,
  reload,
}: {
  job: JobDetail;
  a: string;
  b: string;
  setQ: (p: Record<string, string>) => void;
  reload: () => void;
}) {
  const option = useMemo(() => timelineOption(job.runs), [job.runs]);
  const cluster = job.runs.find((r) => r.appId === a)?.cluster ?? job.cluster;
  return (
    <>
      <header className="page-head">
        <h1>
          <span className="muted">Job</span>{' '}
          <span className="key" data-testid="job-key">
            {job.jobKey}
          </span>
        </h1>
        <p>
          Cluster {job.cluster} · queue {job.queue} · user {job.user} · state <StateBadge state={job.state} />
          {job.frozen && <span className="badge"> ❄ frozen</span>}
        </p>
      </header>
      <JobActions
        jobKey={job.jobKey}
        queue={job.queue}
        frozen={job.frozen}
        pendingTrial={job.pendingTrial}
        onChanged={reload}
      />
      <h2>Runs</h2>
      {job.runs.length === 0 ? (
        <Empty>No runs stored for this job yet.</Empty>
      ) : (
        <>
          <Chart
            id="job-timeline"
            label={`Timeline of ${job.runs.length} runs: wall, blocked, shuffle, spill, failures`}
            option={option}
            height={300}
            onClick={({ dataIndex }) => {
              const r = job.runs[dataIndex];
              if (r) setQ({ [a && !b ? 'b' : 'a']: r.appId });
            }}
          />
          <RunsTable job={job} a={a} b={b} onPick={(side, appId) => setQ({ [side]: appId })} />
        </>
      )}
      <h2>Configuration diff</h2>
      <Diff cluster={cluster} a={a} b={b} />
      <h2>Recommendations</h2>
      <Recommendations recs={job.recommendations} />
      <h2>Tuning state history</h2>
      {job.stateHistory.length === 0 ? (
        <Empty>No state changes recorded.</Empty>
      ) : (
        <ol className="history" data-testid="state-history">
          {job.stateHistory.map((s, i) => (
            <li key={`${s.at}-${i}`}>
              {instant(s.at)} <StateBadge state={s.state} /> {s.reason}
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

export function JobPage() {
  const [q, setQ] = useQueryState(DEFAULTS);
  const job = useApi<JobDetail>(q.jobKey ? '/api/v1/ui/job' : null, { jobKey: q.jobKey });
  if (!q.jobKey)
    return (
      <Empty>
        No job selected: open one from the <Link href="/jobs">jobs list</Link>.
      </Empty>
    );
  return (
    <section>
      <AsyncView state={job} what="the job">
        {(j) => <JobView job={j} a={q.a} b={q.b} setQ={setQ} reload={job.reload} />}
      </AsyncView>
    </section>
  );
}
