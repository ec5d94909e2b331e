import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { ApiFailure, request } from '../api/client';
import { useSession } from '../api/session';
import { useApi } from '../api/useApi';
import type { AuditEntry, RuleBook, TierAlert, TierOutcomes, TierSummaryRow } from '../api/types';
import { AsyncView, Empty, ErrorPanel } from '../components/Async';
import { Chart, type ChartOption } from '../components/Chart';
import { PeriodPicker } from '../components/Period';
import { RuleEditor, draftOf, type Draft } from '../components/RuleEditor';
import { TableHead } from '../components/TableHead';
import { tooltipHtml } from '../lib/escape';
import { count, instant, percent } from '../lib/format';
import { listOf } from '../lib/lists';
import { canAdminister } from '../lib/roles';
import { link } from '../lib/urlState';
import { useQueryState } from '../lib/useQueryState';
import { usePeriod } from '../lib/usePeriod';

const scopeText = (s: { cluster: string | null; queue: string | null; jobKey: string | null }) =>
  [s.cluster && `cluster ${s.cluster}`, s.queue && `queue ${s.queue}`, s.jobKey && `job ${s.jobKey}`]
    .filter(Boolean)
    .join(', ') || 'everything';

export function summaryOption(rows: TierSummaryRow[]): ChartOption {
  const label = (r: TierSummaryRow) => `${r.tier} / ${r.queue}`;
  return {
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      formatter: (ps: { dataIndex: number }[]) => {
        const r = rows[ps[0]?.dataIndex ?? 0];
        return r
          ? tooltipHtml(label(r), [
              ['admissions', r.admissions],
              ['refusals', r.refusals],
              ['successes', r.successes],
              ['fallbacks', r.fallbacks],
              ['failures', r.failures],
            ])
          : '';
      },
    },
    legend: { top: 0 },
    grid: { left: 50, right: 20, top: 36, bottom: 50 },
    xAxis: {
      type: 'category',
      data: rows.map(label),
      axisLabel: { interval: 0, width: 160, overflow: 'truncate' },
    },
    yAxis: { type: 'value', minInterval: 1 },
    series: [
      { name: 'Admissions', type: 'bar', data: rows.map((r) => r.admissions) },
      { name: 'Refusals', type: 'bar', data: rows.map((r) => r.refusals) },
      { name: 'Successes', type: 'bar', data: rows.map((r) => r.successes) },
      { name: 'Fallbacks', type: 'bar', data: rows.map((r) => r.fallbacks) },
      { name: 'Failures', type: 'bar', data: rows.map((r) => r.failures) },
    ],
  };
}

function Summary({ from, to }: { from: number; to: number }) {
  const s = useApi<unknown>('/api/v1/ui/tiers/summary', { from, to });
  return (
    <AsyncView state={s} what="the push-tier summary">
      {(body) => {
        const rows = listOf<TierSummaryRow>(body, 'rows', 'items', 'groups', 'summary');
        if (rows.length === 0) return <Empty>No job was routed to a push tier in this period.</Empty>;
        return (
          <>
            <Chart
              id="tier-summary"
              label="Admissions, refusals, successes, fallbacks and failures per tier and queue"
              option={summaryOption(rows)}
            />
            <table className="data" data-testid="tier-summary">
              <TableHead
                columns={['Tier', 'Queue', 'Admissions', 'Refusals', 'Successes', 'Fallbacks', 'Failures']}
              />
              <tbody>
                {rows.map((r) => (
                  <tr key={`${r.tier}/${r.queue}`}>
                    <td>{r.tier}</td>
                    <td>{r.queue}</td>
                    <td className="num">{count(r.admissions)}</td>
                    <td className="num">{count(r.refusals)}</td>
                    <td className="num">{count(r.successes)}</td>
                    <td className="num">{count(r.fallbacks)}</td>
                    <td className="num">{count(r.failures)}</td>
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

export function Rules({ onChanged }: { onChanged: () => void }) {
  const { me } = useSession();
  const admin = canAdminister(me);
  const book = useApi<RuleBook>('/api/v1/tiers/rules');
  const [editing, setEditing] = useState<Draft | null>(null);
  const [error, setError] = useState<ApiFailure | null>(null);
  const changed = () => {
    setEditing(null);
    book.reload();
    onChanged();
  };
  const remove = async (kind: 'rules' | 'denies', id: string) => {
    setError(null);
    try {
      await request(`/api/v1/tiers/${kind}/${encodeURIComponent(id)}`, { method: 'DELETE' });
      changed();
    } catch (e) {
      setError(e instanceof ApiFailure ? e : new ApiFailure('server', 0, String(e)));
    }
  };
  return (
    <AsyncView state={book} what="the rollout rules">
      {(b) => (
        <>
          <p className="muted">
            Rule set version {b.version}
            {b.loaded ? '' : ' (not loaded yet)'}. The most specific matching rule wins: job key, then queue,
            then cluster.
          </p>
          {b.rules.length === 0 ? (
            <Empty>No rollout rule: every job stays on the ESS.</Empty>
          ) : (
            <table className="data" data-testid="tier-rules">
              <TableHead
                columns={['Id', 'Applies to', 'Tier', 'Share of jobs', 'Note', ...(admin ? ['Edit'] : [])]}
              />
              <tbody>
                {b.rules.map((r) => (
                  <tr key={r.id}>
                    <td className="key">{r.id}</td>
                    <td>{scopeText(r.scope)}</td>
                    <td>{r.tier}</td>
                    <td className="num">{r.percent} %</td>
                    <td>{r.note}</td>
                    {admin && (
                      <td>
                        <button
                          type="button"
                          onClick={() => setEditing(draftOf(r, 'rule'))}
                          aria-label={`Edit rule ${r.id}`}
                        >
                          Edit
                        </button>{' '}
                        <button
                          type="button"
                          onClick={() => void remove('rules', r.id)}
                          aria-label={`Delete rule ${r.id}`}
                        >
                          Delete
                        </button>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h3>Denies</h3>
          {b.denies.length === 0 ? (
            <Empty>No deny entry.</Empty>
          ) : (
            <table className="data" data-testid="tier-denies">
              <TableHead columns={['Id', 'Applies to', 'Reason', ...(admin ? ['Edit'] : [])]} />
              <tbody>
                {b.denies.map((d) => (
                  <tr key={d.id}>
                    <td className="key">{d.id}</td>
                    <td>{scopeText(d.scope)}</td>
                    <td>{d.reason}</td>
                    {admin && (
                      <td>
                        <button
                          type="button"
                          onClick={() => setEditing(draftOf(d, 'deny'))}
                          aria-label={`Edit deny ${d.id}`}
                        >
                          Edit
                        </button>{' '}
                        <button
                          type="button"
                          onClick={() => void remove('denies', d.id)}
                          aria-label={`Delete deny ${d.id}`}
                        >
                          Delete
                        </button>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {admin && !editing && (
            <p>
              <button type="button" data-testid="add-rule" onClick={() => setEditing(draftOf(null, 'rule'))}>
                Add a rollout rule
              </button>{' '}
              <button type="button" onClick={() => setEditing(draftOf(null, 'deny'))}>
                Add a deny entry
              </button>
            </p>
          )}
          {editing && (
            <RuleEditor
              key={`${editing.kind}/${editing.id}`}
              initial={editing}
              onSaved={changed}
              onCancel={() => setEditing(null)}
            />
          )}
          {error && <ErrorPanel error={error} />}
        </>
      )}
    </AsyncView>
  );
}

function Audit() {
  const audit = useApi<AuditEntry[]>('/api/v1/tiers/audit', { limit: 50 });
  return (
    <AsyncView state={audit} what="the audit trail">
      {(list) =>
        list.length === 0 ? (
          <Empty>No rule change recorded.</Empty>
        ) : (
          <table className="data" data-testid="tier-audit">
            <TableHead columns={['When', 'Who', 'What', 'Item', 'Before', 'After', 'Version']} />
            <tbody>
              {list.map((a) => (
                <tr key={a.seq}>
                  <td>{instant(a.at)}</td>
                  <td>{a.actor}</td>
                  <td>{a.action}</td>
                  <td className="key">{a.itemId}</td>
                  <td className="val">{a.before ?? '—'}</td>
                  <td className="val">{a.after ?? '—'}</td>
                  <td className="num">{a.version}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      }
    </AsyncView>
  );
}

function Decisions() {
  const [q, setQ] = useQueryState({ decisionsFor: '' });
  const decisions = useApi<Record<string, unknown>[]>(q.decisionsFor ? '/api/v1/tiers/decisions' : null, {
    jobKey: q.decisionsFor,
    limit: 50,
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setQ({ decisionsFor: String(new FormData(e.currentTarget).get('jobKey') ?? '').trim() });
  };
  return (
    <>
      <form className="filters" onSubmit={submit} aria-label="Admission decisions of a job">
        <label>
          Job key <input name="jobKey" defaultValue={q.decisionsFor} size={50} />
        </label>
        <button type="submit">Show decisions</button>
      </form>
      {!q.decisionsFor ? (
        <Empty>Enter a job key to see its admission decisions and their reasons.</Empty>
      ) : (
        <AsyncView state={decisions} what="admission decisions">
          {(list) =>
            list.length === 0 ? (
              <Empty>No tier decision recorded for this job.</Empty>
            ) : (
              <table className="data" data-testid="tier-decisions">
                <TableHead
                  columns={['When', 'Queue', 'Rules allowed', 'Got', 'Outcome', 'Rule / deny', 'Reason']}
                />
                <tbody>
                  {list.map((d, i) => (
                    <tr key={i}>
                      <td>{instant(d.decidedAt as number)}</td>
                      <td>{String(d.queue ?? '')}</td>
                      <td>{String(d.rolloutTier ?? '')}</td>
                      <td>{String(d.tier ?? '')}</td>
                      <td>{String(d.outcome ?? '')}</td>
                      <td className="key">{String(d.ruleId ?? d.denyId ?? '—')}</td>
                      <td>{String(d.reason ?? '')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )
          }
        </AsyncView>
      )}
    </>
  );
}

function Outcomes() {
  const o = useApi<TierOutcomes>('/api/v1/tiers/outcomes', { window: '7d', limit: 50 });
  return (
    <AsyncView state={o} what="run outcomes">
      {(data) =>
        data.runs.length === 0 ? (
          <Empty>No routed run reported in the last 7 days.</Empty>
        ) : (
          <table className="data" data-testid="tier-outcomes">
            <TableHead
              columns={[
                'Reported',
                'Application',
                'Queue',
                'Requested',
                'Ran on',
                'Fallback reason',
                'Status',
              ]}
            />
            <tbody>
              {data.runs.map((r, i) => (
                <tr key={String(r.runKey ?? i)}>
                  <td>{instant(r.updatedAt as number)}</td>
                  <td className="key">
                    {r.jobKey ? (
                      <Link href={link('/job', { jobKey: String(r.jobKey) })}>
                        {String(r.appId ?? r.submissionId ?? '')}
                      </Link>
                    ) : (
                      String(r.appId ?? '')
                    )}
                  </td>
                  <td>{String(r.queue ?? '')}</td>
                  <td>{String(r.requestedTier ?? '')}</td>
                  <td>{String(r.ranTier ?? '—')}</td>
                  <td>
                    {r.fallbackReason
                      ? `↩ ${String(r.fallbackReason)}${r.fallbackDetail ? `: ${String(r.fallbackDetail)}` : ''}`
                      : '—'}
                  </td>
                  <td>{String(r.status ?? '—')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      }
    </AsyncView>
  );
}

function Alerts() {
  const alerts = useApi<TierAlert[]>('/api/v1/tiers/alerts', { window: '7d' });
  return (
    <AsyncView state={alerts} what="alerts">
      {(list) =>
        list.length === 0 ? (
          <Empty>No alert in the last 7 days.</Empty>
        ) : (
          <table className="data" data-testid="tier-alerts">
            <TableHead
              columns={['Raised', 'Tier / queue', 'Kind', 'Rate', 'Threshold', 'Summary', 'Delivery']}
            />
            <tbody>
              {list.map((a) => (
                <tr key={a.seq}>
                  <td>{instant(a.raisedAt)}</td>
                  <td>
                    {a.tier} / {a.queue}
                  </td>
                  <td>
                    <span aria-hidden="true">⚠ </span>
                    {a.kind}
                  </td>
                  <td className="num">{percent(a.rate)}</td>
                  <td className="num">{percent(a.threshold)}</td>
                  <td>{a.summary}</td>
                  <td>{a.delivery}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      }
    </AsyncView>
  );
}

export function TierPage() {
  const period = usePeriod();
  const [version, setVersion] = useState(0);
  return (
    <section>
      <header className="page-head">
        <h1>Push tier</h1>
        <PeriodPicker range={period.range} custom={period.custom} onChange={period.setRange} />
      </header>
      <h2>Admissions, fallbacks and failures per tier and queue</h2>
      <Summary from={period.from} to={period.to} />
      <h2>Open alerts</h2>
      <Alerts />
      <h2>Rollout rules</h2>
      <Rules onChanged={() => setVersion((v) => v + 1)} />
      <h2>Audit trail</h2>
      <Audit key={version} />
      <h2>Admission decisions</h2>
      <Decisions />
      <h2>Run outcomes</h2>
      <Outcomes />
    </section>
  );
}
