import { useMemo } from 'react';
import { Link } from 'wouter';
import { useApi } from '../api/useApi';
import type { RunDetail, StageProfile } from '../api/types';
import { AsyncView, Empty } from '../components/Async';
import { SeverityBadge } from '../components/Badges';
import { Chart, type ChartOption } from '../components/Chart';
import { Evidence } from '../components/Evidence';
import { TableHead } from '../components/TableHead';
import { tooltipHtml } from '../lib/escape';
import { bytes, count, duration, instant, num, percent } from '../lib/format';
import { link } from '../lib/urlState';
import { useQueryState } from '../lib/useQueryState';

const DEFAULTS = { cluster: '', appId: '', attemptId: '' };

const stageLabel = (s: StageProfile) =>
  s.stageAttemptId > 0 ? `${s.stageId} (attempt ${s.stageAttemptId})` : `${s.stageId}`;
const readBytes = (s: StageProfile) => s.shuffleRemoteBytesRead + s.shuffleLocalBytesRead;
const blocks = (s: StageProfile) => s.shuffleRemoteBlocksFetched + s.shuffleLocalBlocksFetched;
const spill = (s: StageProfile) => s.diskBytesSpilled;

function stageTooltip(stages: StageProfile[]) {
  return (ps: { dataIndex: number }[]) => {
    const s = stages[ps[0]?.dataIndex ?? 0];
    return s
      ? tooltipHtml(`stage ${stageLabel(s)} ${s.name}`, [
          ['shuffle read', bytes(readBytes(s))],
          ['shuffle write', bytes(s.shuffleWriteBytes)],
          ['blocks', count(blocks(s))],
          ['avg remote block', bytes(s.avgRemoteBlockBytes)],
          ['fetch wait', duration(s.shuffleFetchWaitMs)],
          ['read skew', num(s.readSkew)],
          ['spill', bytes(spill(s))],
        ])
      : '';
  };
}

export function stageBytesOption(stages: StageProfile[]): ChartOption {
  return {
    tooltip: { trigger: 'axis', formatter: stageTooltip(stages) },
    legend: { top: 0 },
    grid: { left: 60, right: 20, top: 36, bottom: 30 },
    xAxis: { type: 'category', name: 'stage', data: stages.map(stageLabel) },
    yAxis: { type: 'value', name: 'MiB' },
    series: [
      {
        name: 'Shuffle read (MiB)',
        type: 'bar',
        barMaxWidth: 28,
        data: stages.map((s) => readBytes(s) / 1048576),
      },
      {
        name: 'Shuffle write (MiB)',
        type: 'bar',
        barMaxWidth: 28,
        data: stages.map((s) => s.shuffleWriteBytes / 1048576),
      },
      { name: 'Spill (MiB)', type: 'bar', barMaxWidth: 28, data: stages.map((s) => spill(s) / 1048576) },
    ],
  };
}

/** Two measures per stage on their own axes: {@code left} as bars, {@code right} as a line. */
function pairOption(
  stages: StageProfile[],
  left: [string, string, (s: StageProfile) => number],
  right: [string, string, (s: StageProfile) => number],
): ChartOption {
  return {
    tooltip: { trigger: 'axis', formatter: stageTooltip(stages) },
    legend: { top: 0 },
    grid: { left: 60, right: 60, top: 36, bottom: 30 },
    xAxis: { type: 'category', name: 'stage', data: stages.map(stageLabel) },
    yAxis: [
      { type: 'value', name: left[1] },
      { type: 'value', name: right[1], position: 'right' },
    ],
    series: [
      { name: left[0], type: 'bar', barMaxWidth: 28, data: stages.map(left[2]) },
      {
        name: right[0],
        type: 'line',
        yAxisIndex: 1,
        symbol: 'triangle',
        symbolSize: 9,
        data: stages.map(right[2]),
      },
    ],
  };
}

export const stageBlocksOption = (stages: StageProfile[]) =>
  pairOption(
    stages,
    ['Blocks fetched', 'blocks', blocks],
    ['Avg remote block (KiB)', 'KiB', (s) => s.avgRemoteBlockBytes / 1024],
  );

export const stageWaitOption = (stages: StageProfile[]) =>
  pairOption(
    stages,
    ['Fetch wait (ms)', 'ms', (s) => s.shuffleFetchWaitMs],
    ['Read skew (max/median)', 'ratio', (s) => s.readSkew],
  );

function RunView({ d }: { d: RunDetail }) {
  const r = d.run;
  const bytesOpt = useMemo(() => stageBytesOption(d.stages), [d.stages]);
  const blocksOpt = useMemo(() => stageBlocksOption(d.stages), [d.stages]);
  const waitOpt = useMemo(() => stageWaitOption(d.stages), [d.stages]);
  const confKeys = Object.keys(d.conf).sort();
  return (
    <>
      <header className="page-head">
        <h1>
          <span className="muted">Run</span>{' '}
          <span className="key" data-testid="run-app">
            {r.appId}
          </span>
        </h1>
        <p>
          <span data-testid="run-name">{r.name}</span> · job{' '}
          <Link href={link('/job', { jobKey: r.jobKey })} className="key">
            {r.jobKey}
          </Link>
        </p>
        <p>
          Cluster {r.cluster} · queue {r.queue} · user {r.user} · priority {r.priority ?? '—'} · Spark{' '}
          {r.sparkVersion}
        </p>
        <p>
          {instant(r.startTime)} → {instant(r.endTime)} · wall <strong>{duration(r.wallMs)}</strong> · status{' '}
          {r.status} · tier <strong data-testid="run-tier">{r.tier ?? 'ESS'}</strong>
        </p>
      </header>
      <h2>Diagnoses</h2>
      {d.diagnoses.length === 0 ? (
        <Empty>No rule found anything to report for this run.</Empty>
      ) : (
        <table className="data" data-testid="diagnoses">
          <TableHead columns={['Severity', 'Rule', 'Finding', 'Stages', 'Evidence', 'Recommends']} />
          <tbody>
            {d.diagnoses.map((g) => (
              <tr key={g.ruleId}>
                <td>
                  <SeverityBadge severity={g.severity} />
                </td>
                <td className="key">{g.ruleId}</td>
                <td>{g.summary}</td>
                <td>{g.stageIds.join(', ') || '—'}</td>
                <td>
                  <Evidence evidence={g.evidence} />
                </td>
                <td>
                  {g.recommendations.map((x) => (
                    <div key={x.key} className="val">
                      {x.key}={x.value}
                    </div>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Stages</h2>
      {d.stages.length === 0 ? (
        <Empty>No stage profiles stored for this run.</Empty>
      ) : (
        <>
          <div className="charts">
            <Chart id="run-stage-bytes" label="Shuffle read, write and spill per stage" option={bytesOpt} />
            <Chart
              id="run-stage-blocks"
              label="Blocks fetched and average block size per stage"
              option={blocksOpt}
            />
            <Chart id="run-stage-wait" label="Shuffle fetch wait and read skew per stage" option={waitOpt} />
          </div>
          <div className="scroll">
            <table className="data" data-testid="stages">
              <TableHead
                columns={[
                  'Stage',
                  'Name',
                  'Tasks',
                  'Failed',
                  'Shuffle read',
                  'Shuffle write',
                  'Blocks',
                  'Avg block',
                  'Fetch wait',
                  'Wait share',
                  'Skew',
                  'Spill',
                  'Maps × reduces',
                ]}
              />
              <tbody>
                {d.stages.map((s) => (
                  <tr key={stageLabel(s)}>
                    <td>{stageLabel(s)}</td>
                    <td className="name">{s.name}</td>
                    <td className="num">{count(s.numTasks)}</td>
                    <td className="num">{count(s.failedTasks)}</td>
                    <td className="num">{bytes(readBytes(s))}</td>
                    <td className="num">{bytes(s.shuffleWriteBytes)}</td>
                    <td className="num">{count(blocks(s))}</td>
                    <td className="num">{bytes(s.avgRemoteBlockBytes)}</td>
                    <td className="num">{duration(s.shuffleFetchWaitMs)}</td>
                    <td className="num">{percent(s.fetchWaitShare)}</td>
                    <td className="num">{num(s.readSkew)}</td>
                    <td className="num">{bytes(spill(s))}</td>
                    <td className="num">
                      {s.mapPartitions} × {s.reducePartitions}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <h2>Settings it ran with</h2>
      <p className="muted">
        ⊕ marks the keys Sluice injected at submission. Values shown as *********(redacted) are secrets or not
        readable with your role.
      </p>
      {confKeys.length === 0 ? (
        <Empty>No Spark properties stored for this run.</Empty>
      ) : (
        <table className="data" data-testid="conf">
          <TableHead columns={['Key', 'Value', 'Injected by Sluice']} />
          <tbody>
            {confKeys.map((k) => (
              <tr key={k} data-injected={k in d.injected ? 'yes' : 'no'}>
                <td className="key">{k}</td>
                <td className="val">{d.conf[k]}</td>
                <td>
                  {k in d.injected ? (
                    <>
                      <span aria-hidden="true">⊕ </span>injected
                    </>
                  ) : (
                    ''
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

export function RunPage() {
  const [q] = useQueryState(DEFAULTS);
  const run = useApi<RunDetail>(q.appId ? '/api/v1/ui/run' : null, q);
  if (!q.appId)
    return (
      <Empty>
        No run selected: open one from a <Link href="/jobs">job</Link>.
      </Empty>
    );
  return (
    <section>
      <AsyncView state={run} what="the run">
        {(d) => <RunView d={d} />}
      </AsyncView>
    </section>
  );
}
