import { useState, type FormEvent } from 'react';
import { ApiFailure, apiUrl, request } from '../api/client';
import { useSession } from '../api/session';
import { canOperate } from '../lib/roles';
import { ErrorPanel } from './Async';

/**
 * Freeze/unfreeze and operator trials. Shown only to users whose role allows them on the job's queue; the service
 * refuses the same writes from anyone else.
 */
export function JobActions({
  jobKey,
  queue,
  frozen,
  pendingTrial,
  onChanged,
}: {
  jobKey: string;
  queue: string;
  frozen: boolean;
  pendingTrial: Record<string, string> | null;
  onChanged: () => void;
}) {
  const { me } = useSession();
  const [error, setError] = useState<ApiFailure | null>(null);
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState('spark.sql.shuffle.partitions');
  const [value, setValue] = useState('');
  if (!canOperate(me, queue)) return null;

  const write = async (method: 'POST' | 'DELETE', path: string, body?: unknown) => {
    setBusy(true);
    setError(null);
    try {
      await request(apiUrl(path, { jobKey }), { method, body });
      onChanged();
    } catch (e) {
      setError(e instanceof ApiFailure ? e : new ApiFailure('server', 0, String(e)));
    } finally {
      setBusy(false);
    }
  };
  const submitTrial = (e: FormEvent) => {
    e.preventDefault();
    void write('POST', '/api/v1/jobs/trial', { [key.trim()]: value.trim() });
  };

  return (
    <div className="panel actions" data-testid="job-actions">
      <h2>Operator actions</h2>
      <button
        type="button"
        disabled={busy}
        data-testid={frozen ? 'unfreeze' : 'freeze'}
        onClick={() => void write('POST', frozen ? '/api/v1/jobs/unfreeze' : '/api/v1/jobs/freeze')}
      >
        {frozen ? 'Unfreeze tuning' : 'Freeze tuning'}
      </button>
      {pendingTrial ? (
        <p>
          Pending trial:{' '}
          {Object.entries(pendingTrial)
            .map(([k, v]) => `${k}=${v}`)
            .join(', ')}{' '}
          <button type="button" disabled={busy} onClick={() => void write('DELETE', '/api/v1/jobs/trial')}>
            Cancel trial
          </button>
        </p>
      ) : (
        <form onSubmit={submitTrial} className="inline" aria-label="Operator trial">
          <label>
            Trial key <input value={key} onChange={(e) => setKey(e.target.value)} required />
          </label>
          <label>
            value <input value={value} onChange={(e) => setValue(e.target.value)} required />
          </label>
          <button type="submit" disabled={busy}>
            Start trial on next run
          </button>
        </form>
      )}
      {error && <ErrorPanel error={error} />}
    </div>
  );
}
