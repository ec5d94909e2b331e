import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { useApi } from '../api/useApi';
import type { Facets, JobRow, Paged } from '../api/types';
import { AsyncView, Empty } from '../components/Async';
import { SeverityBadge, StateBadge } from '../components/Badges';
import { Pager } from '../components/Pager';
import { duration, instant } from '../lib/format';
import { link } from '../lib/urlState';
import { useQueryState } from '../lib/useQueryState';

const DEFAULTS = {
  q: '',
  cluster: '',
  queue: '',
  user: '',
  state: '',
  severity: '',
  sort: 'lastRun',
  dir: 'desc',
  page: '0',
  size: '50',
};

const COLUMNS: { key: string; label: string; sort?: string }[] = [
  { key: 'jobKey', label: 'Job', sort: 'jobKey' },
  { key: 'cluster', label: 'Cluster' },
  { key: 'queue', label: 'Queue' },
  { key: 'user', label: 'User' },
  { key: 'state', label: 'Tuning state' },
  { key: 'severity', label: 'Worst severity' },
  { key: 'lastRun', label: 'Last run', sort: 'lastRun' },
  { key: 'runs', label: 'Runs', sort: 'runs' },
  { key: 'wallMs', label: 'Last wall time', sort: 'wallMs' },
];

function FacetSelect({
  label,
  name,
  value,
  options,
  onChange,
}: {
  label: string;
  name: string;
  value: string;
  options: string[];
  onChange: (v: string) => void;
}) {
  return (
    <label>
      {label}{' '}
      <select
        name={name}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid={`filter-${name}`}
      >
        <option value="">any</option>
        {value && !options.includes(value) && <option value={value}>{value}</option>}
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}

export function JobsPage() {
  const [q, setQ] = useQueryState(DEFAULTS);
  const [text, setText] = useState(q.q);
  useEffect(() => setText(q.q), [q.q]); // back/forward changes the URL under the field
  const facets = useApi<Facets>('/api/v1/ui/jobs/facets');
  const jobs = useApi<Paged<JobRow>>('/api/v1/ui/jobs', {
    q: q.q,
    cluster: q.cluster,
    queue: q.queue,
    user: q.user,
    state: q.state,
    severity: q.severity,
    sort: q.sort,
    dir: q.dir,
    page: q.page,
    size: q.size,
  });
  const f: Facets =
    facets.status === 'ok'
      ? facets.data
      : { clusters: [], queues: [], users: [], states: [], severities: [] };
  const filter = (name: string) => (v: string) => setQ({ [name]: v, page: null });
  const search = (e: FormEvent) => {
    e.preventDefault();
    setQ({ q: text.trim(), page: null });
  };
  const sortBy = (col: string) => {
    const dir = q.sort === col && q.dir === 'desc' ? 'asc' : 'desc';
    setQ({ sort: col, dir, page: null });
  };

  return (
    <section>
      <h1>Jobs</h1>
      <form className="filters" onSubmit={search} role="search">
        <label>
          Search{' '}
          <input
            type="search"
            name="q"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="job key, app name"
            data-testid="filter-q"
          />
        </label>
        <button type="submit">Search</button>
        <FacetSelect
          label="Cluster"
          name="cluster"
          value={q.cluster}
          options={f.clusters}
          onChange={filter('cluster')}
        />
        <FacetSelect
          label="Queue"
          name="queue"
          value={q.queue}
          options={f.queues}
          onChange={filter('queue')}
        />
        <FacetSelect label="User" name="user" value={q.user} options={f.users} onChange={filter('user')} />
        <FacetSelect
          label="State"
          name="state"
          value={q.state}
          options={f.states}
          onChange={filter('state')}
        />
        <FacetSelect
          label="Severity"
          name="severity"
          value={q.severity}
          options={f.severities}
          onChange={filter('severity')}
        />
      </form>
      <AsyncView state={jobs} what="jobs">
        {(data) =>
          data.items.length === 0 ? (
            <Empty>No jobs match these filters.</Empty>
          ) : (
            <>
              <table className="data" data-testid="jobs-table">
                <thead>
                  <tr>
                    {COLUMNS.map((c) => (
                      <th
                        key={c.key}
                        scope="col"
                        aria-sort={
                          c.sort && q.sort === c.sort
                            ? q.dir === 'asc'
                              ? 'ascending'
                              : 'descending'
                            : undefined
                        }
                      >
                        {c.sort ? (
                          <button type="button" className="sort" onClick={() => sortBy(c.sort!)}>
                            {c.label}
                            {q.sort === c.sort ? (q.dir === 'asc' ? ' ▲' : ' ▼') : ''}
                          </button>
                        ) : (
                          c.label
                        )}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((j) => (
                    <tr key={j.jobKey}>
                      <td className="key">
                        <Link href={link('/job', { jobKey: j.jobKey })}>{j.jobKey}</Link>
                      </td>
                      <td>{j.cluster}</td>
                      <td>{j.queue}</td>
                      <td>{j.user}</td>
                      <td>
                        <StateBadge state={j.state} />
                        {j.frozen && <span className="badge"> ❄ frozen</span>}
                      </td>
                      <td>
                        <SeverityBadge severity={j.worstSeverity} />
                      </td>
                      <td>{instant(j.lastRunAt)}</td>
                      <td className="num">{j.runs}</td>
                      <td className="num">{duration(j.lastWallMs)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pager total={data.total} page={data.page} size={data.size} onPage={(p) => setQ({ page: p })} />
            </>
          )
        }
      </AsyncView>
    </section>
  );
}
