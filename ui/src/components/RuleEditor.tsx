import { useState, type FormEvent } from 'react';
import { ApiFailure, request } from '../api/client';
import type { DenyEntry, RolloutRule } from '../api/types';
import { ErrorPanel } from './Async';

export const TIERS = ['SPARK_PUSH', 'CELEBORN', 'UNIFFLE', 'ESS'];

export type Draft = {
  kind: 'rule' | 'deny';
  id: string;
  cluster: string;
  queue: string;
  jobKey: string;
  tier: string;
  percent: string;
  text: string;
};

export function draftOf(item: RolloutRule | DenyEntry | null, kind: 'rule' | 'deny'): Draft {
  const rule = item && 'tier' in item ? item : null;
  return {
    kind,
    id: item?.id ?? '',
    cluster: item?.scope.cluster ?? '',
    queue: item?.scope.queue ?? '',
    jobKey: item?.scope.jobKey ?? '',
    tier: rule?.tier ?? 'SPARK_PUSH',
    percent: rule ? String(rule.percent) : '10',
    text: rule ? rule.note : item && 'reason' in item ? item.reason : '',
  };
}

/** The request a draft makes: the existing {@code PUT /api/v1/tiers/rules/{id}} or {@code /denies/{id}} body. */
export function requestOf(d: Draft): { path: string; body: Record<string, unknown> } {
  const scope = {
    cluster: d.cluster.trim() || null,
    queue: d.queue.trim() || null,
    jobKey: d.jobKey.trim() || null,
  };
  const id = encodeURIComponent(d.id.trim());
  return d.kind === 'rule'
    ? {
        path: `/api/v1/tiers/rules/${id}`,
        body: { ...scope, tier: d.tier, percent: Number(d.percent), note: d.text },
      }
    : { path: `/api/v1/tiers/denies/${id}`, body: { ...scope, reason: d.text } };
}

/** Creates or replaces a rollout rule or deny entry (shown to ADMIN only; the service checks the role too). */
export function RuleEditor({
  initial,
  onSaved,
  onCancel,
}: {
  initial: Draft;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const [d, setD] = useState<Draft>(initial);
  const [error, setError] = useState<ApiFailure | null>(null);
  const set = (k: keyof Draft) => (e: { target: { value: string } }) => setD({ ...d, [k]: e.target.value });
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const r = requestOf(d);
    try {
      await request(r.path, { method: 'PUT', body: r.body });
      onSaved();
    } catch (err) {
      setError(err instanceof ApiFailure ? err : new ApiFailure('server', 0, String(err)));
    }
  };
  const title = d.kind === 'rule' ? 'Rollout rule' : 'Deny entry';
  return (
    <form className="panel inline" onSubmit={save} aria-label={title} data-testid="rule-editor">
      <strong>{title}</strong>
      <label>
        Id <input value={d.id} onChange={set('id')} required pattern="[A-Za-z0-9._\-]{1,64}" />
      </label>
      <label>
        Cluster <input value={d.cluster} onChange={set('cluster')} placeholder="any" />
      </label>
      <label>
        Queue <input value={d.queue} onChange={set('queue')} placeholder="any" />
      </label>
      <label>
        Job key <input value={d.jobKey} onChange={set('jobKey')} placeholder="any" />
      </label>
      {d.kind === 'rule' && (
        <>
          <label>
            Tier{' '}
            <select value={d.tier} onChange={set('tier')}>
              {TIERS.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </label>
          <label>
            Percent{' '}
            <input
              type="number"
              min="0"
              max="100"
              step="any"
              value={d.percent}
              onChange={set('percent')}
              required
            />
          </label>
        </>
      )}
      <label>
        {d.kind === 'rule' ? 'Note' : 'Reason'} <input value={d.text} onChange={set('text')} />
      </label>
      <button type="submit">Save</button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
      {error && <ErrorPanel error={error} />}
    </form>
  );
}
