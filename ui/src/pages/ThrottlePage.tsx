import type { FormEvent } from 'react';
import { useApi } from '../api/useApi';
import type {
  GateEvent,
  Paged,
  StoredGateEvent,
  ThrottleApp,
  ThrottleNode,
  TimelineBucket,
} from '../api/types';
import { AsyncView, Empty } from '../components/Async';
import { StateBadge } from '../components/Badges';
import { Chart, type ChartOption } from '../components/Chart';
import { Pager } from '../components/Pager';
import { PeriodPicker } from '../components/Period';
import { TableHead } from '../components/TableHead';
import { tooltipHtml } from '../lib/escape';
import { count, duration, instant } from '../lib/format';
import { bucketMs, listOf } from '../lib/lists';
import { useQueryState } from '../lib/useQueryState';
import { usePeriod } from '../lib/usePeriod';

const DEFAULTS = { cluster: '', node: '', type: '', page: '0' };
const EVENT_TYPES = ['stateChanged', 'held', 'released', 'directive', 'degraded', 'episodeEnded'];

const nodeName = (n: { cluster: string; node: string }) => `${n.cluster}/${n.node}`;

/** Each node a row, each abnormal episode a bar from its start to its end (or to the period's end while open). */
export function nodesOption(nodes: ThrottleNode[], from: number, to: number): ChartOption {
  const names = nodes.map(nodeName);
  const data = nodes.flatMap((n, i) =>
    n.episodes.map((e) => ({
      value: [i, Math.max(e.start, from), Math.min(e.end ?? to, to), e.held, e.durationMs],
      name: names[i],
    })),
  );
  return {
    tooltip: {
      formatter: (p: { value: number[]; name: string }) =>
        tooltipHtml(p.name, [
          ['abnormal from', instant(p.value[1])],
          ['until', instant(p.value[2])],
          ['duration', duration(p.value[4])],
          ['requests held', count(p.value[3])],
        ]),
    },
    grid: { left: 160, right: 20, top: 10, bottom: 40 },
    xAxis: { type: 'time', min: from, max: to },
    yAxis: { type: 'category', data: names, axisLabel: { width: 150, overflow: 'truncate' } },
    series: [
      {
        name: 'Abnormal episodes',
        type: 'custom',
        encode: { x: [1, 2], y: 0 },
        data,
        renderItem: (
          _params: unknown,
          api: {
            value: (i: number) => number;
            coord: (v: number[]) => number[];
            size: (v: number[]) => number[];
            style: () => Record<string, unknown>;
          },
        ) => {
          const start = api.coord([api.value(1), api.value(0)]);
          const end = api.coord([api.value(2), api.value(0)]);
          const h = api.size([0, 1])[1] * 0.6;
          return {
            type: 'rect',
            shape: { x: start[0], y: start[1] - h / 2, width: Math.max(2, end[0] - start[0]), height: h },
            style: {
              ...api.style(),
              fill: '#c0392b',
              stroke: '#7b1d14',
              decal: { symbol: 'rect', dashArrayX: [1, 0] },
            },
          };
        },
      },
    ],
  };
}

export function timelineOption(buckets: TimelineBucket[]): ChartOption {
  const at = (b: TimelineBucket) => b.at;
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 50, right: 50, top: 36, bottom: 30 },
    xAxis: { type: 'time' },
    yAxis: [
      { type: 'value', name: 'events' },
      { type: 'value', name: 'nodes', position: 'right', minInterval: 1 },
    ],
    series: [
      { name: 'Held', type: 'bar', stack: 'ev', data: buckets.map((b) => [at(b), b.held]) },
      { name: 'Released', type: 'bar', stack: 'ev', data: buckets.map((b) => [at(b), b.released]) },
      {
        name: 'Directives (sleep)',
        type: 'bar',
        stack: 'ev',
        data: buckets.map((b) => [at(b), b.directives]),
      },
      {
        name: 'Abnormal nodes',
        type: 'line',
        step: 'end',
        yAxisIndex: 1,
        symbol: 'triangle',
        data: buckets.map((b) => [at(b), b.abnormalNodes]),
      },
    ],
  };
}

const appLabel = (a: ThrottleApp) => `${a.appId} (priority ${a.priority ?? '?'})`;

export function appsOption(apps: ThrottleApp[]): ChartOption {
  const sorted = [...apps].sort((x, y) => (x.priority ?? 0) - (y.priority ?? 0));
  return {
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      formatter: (ps: { dataIndex: number }[]) => {
        const a = sorted[ps[0]?.dataIndex ?? 0];
        return a
          ? tooltipHtml(a.appId, [
              ['priority', a.priority ?? '?'],
              ['requests held', count(a.held)],
              ['held for', duration(a.heldMs)],
              ['sleep directives', count(a.directives)],
              ['slept for', duration(a.sleepMs)],
              ['nodes', count(a.nodes)],
            ])
          : '';
      },
    },
    legend: { top: 0 },
    grid: { left: 200, right: 20, top: 30, bottom: 30 },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', data: sorted.map(appLabel), axisLabel: { width: 190, overflow: 'truncate' } },
    series: [
      { name: 'Requests held', type: 'bar', barMaxWidth: 18, data: sorted.map((a) => a.held) },
      { name: 'Sleep directives', type: 'bar', barMaxWidth: 18, data: sorted.map((a) => a.directives) },
    ],
  };
}

function Nodes({ from, to }: { from: number; to: number }) {
  const nodes = useApi<unknown>('/api/v1/ui/throttle/nodes', { from, to });
  return (
    <AsyncView state={nodes} what="ESS nodes">
      {(body) => {
        const list = listOf<ThrottleNode>(body, 'nodes');
        if (list.length === 0) return <Empty>No ESS gate has reported in this period.</Empty>;
        return (
          <>
            {list.some((n) => n.episodes.length > 0) ? (
              <Chart
                id="throttle-nodes"
                label="Abnormal episodes per ESS node over time"
                option={nodesOption(list, from, to)}
                height={Math.max(120, 40 + list.length * 28)}
              />
            ) : (
              <Empty>No node was abnormal in this period.</Empty>
            )}
            <table className="data" data-testid="throttle-nodes">
              <TableHead columns={['Node', 'State now', 'Since', 'Last event', 'Held now', 'Episodes']} />
              <tbody>
                {list.map((n) => (
                  <tr key={nodeName(n)}>
                    <td className="key">{nodeName(n)}</td>
                    <td>
                      <StateBadge state={n.state} />
                    </td>
                    <td>{instant(n.since)}</td>
                    <td>{instant(n.lastEventAt)}</td>
                    <td className="num">{count(n.heldNow)}</td>
                    <td className="num">{n.episodes.length}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        );
      }}
    </AsyncView>
  );
}

function Timeline({ from, to }: { from: number; to: number }) {
  const t = useApi<unknown>('/api/v1/ui/throttle/timeline', { from, to, bucketMs: bucketMs(from, to) });
  return (
    <AsyncView state={t} what="the holds timeline">
      {(body) => {
        const buckets = listOf<TimelineBucket>(body, 'buckets', 'timeline');
        return buckets.length === 0 ? (
          <Empty>No holds or directives in this period.</Empty>
        ) : (
          <Chart
            id="throttle-timeline"
            label="Holds, releases, directives and abnormal nodes over time"
            option={timelineOption(buckets)}
          />
        );
      }}
    </AsyncView>
  );
}

function Apps({ from, to }: { from: number; to: number }) {
  const apps = useApi<unknown>('/api/v1/ui/throttle/apps', { from, to });
  return (
    <AsyncView state={apps} what="held applications">
      {(body) => {
        const list = listOf<ThrottleApp>(body, 'apps', 'items');
        if (list.length === 0) return <Empty>No application was held or slept in this period.</Empty>;
        return (
          <>
            <Chart
              id="throttle-apps"
              label="Requests held and directives per application, by priority"
              option={appsOption(list)}
              height={Math.max(140, 50 + list.length * 26)}
            />
            <table className="data" data-testid="throttle-apps">
              <TableHead
                columns={[
                  'Application',
                  'Cluster',
                  'Priority',
                  'Requests held',
                  'Held for',
                  'Released',
                  'Sleep directives',
                  'Slept for',
                  'Nodes',
                  'First',
                  'Last',
                ]}
              />
              <tbody>
                {list.map((a) => (
                  <tr key={`${a.cluster}/${a.appId}`}>
                    <td className="key">{a.appId}</td>
                    <td>{a.cluster}</td>
                    <td className="num">{a.priority ?? '—'}</td>
                    <td className="num">{count(a.held)}</td>
                    <td className="num">{duration(a.heldMs)}</td>
                    <td className="num">{count(a.released)}</td>
                    <td className="num">{count(a.directives)}</td>
                    <td className="num">{duration(a.sleepMs)}</td>
                    <td className="num">{count(a.nodes)}</td>
                    <td>{instant(a.firstAt)}</td>
                    <td>{instant(a.lastAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        );
      }}
    </AsyncView>
  );
}

const eventOf = (item: StoredGateEvent | GateEvent): GateEvent =>
  ('event' in item && item.event && typeof item.event === 'object' ? item.event : item) as GateEvent;

function eventDetail(e: GateEvent): string {
  const skip = new Set(['type', 'cluster', 'node', 'at']);
  return Object.entries(e)
    .filter(([k]) => !skip.has(k))
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ');
}

function Events({ from, to }: { from: number; to: number }) {
  const [q, setQ] = useQueryState(DEFAULTS);
  const events = useApi<Paged<StoredGateEvent | GateEvent>>('/api/v1/ui/throttle/events', {
    from,
    to,
    cluster: q.cluster,
    node: q.node,
    type: q.type,
    page: q.page,
    size: 50,
  });
  const filter = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    setQ({
      cluster: String(f.get('cluster') ?? '').trim(),
      node: String(f.get('node') ?? '').trim(),
      page: null,
    });
  };
  return (
    <>
      <form className="filters" onSubmit={filter} aria-label="Event filters">
        <label>
          Cluster <input name="cluster" defaultValue={q.cluster} data-testid="event-cluster" />
        </label>
        <label>
          Node <input name="node" defaultValue={q.node} data-testid="event-node" />
        </label>
        <button type="submit">Filter</button>
        <label>
          Type{' '}
          <select
            value={q.type}
            onChange={(e) => setQ({ type: e.target.value, page: null })}
            data-testid="event-type"
          >
            <option value="">any</option>
            {EVENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
      </form>
      <AsyncView state={events} what="gate events">
        {(p) =>
          p.items.length === 0 ? (
            <Empty>No gate events match.</Empty>
          ) : (
            <>
              <table className="data" data-testid="throttle-events">
                <TableHead columns={['At', 'Node', 'Type', 'Detail']} />
                <tbody>
                  {p.items.map(eventOf).map((e, i) => (
                    <tr key={`${e.at}-${i}`}>
                      <td>{instant(e.at)}</td>
                      <td className="key">{nodeName(e)}</td>
                      <td>{e.type}</td>
                      <td className="val">{eventDetail(e)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pager total={p.total} page={p.page} size={p.size} onPage={(n) => setQ({ page: n })} />
            </>
          )
        }
      </AsyncView>
    </>
  );
}

export function ThrottlePage() {
  const period = usePeriod();
  const { from, to } = period;
  return (
    <section>
      <header className="page-head">
        <h1>ESS throttling</h1>
        <PeriodPicker range={period.range} custom={period.custom} onChange={period.setRange} />
      </header>
      <h2>Nodes and their state over time</h2>
      <Nodes from={from} to={to} />
      <h2>Holds and directives over time</h2>
      <Timeline from={from} to={to} />
      <h2>Applications held or slept, by priority</h2>
      <Apps from={from} to={to} />
      <h2>Gate events</h2>
      <Events from={from} to={to} />
    </section>
  );
}
