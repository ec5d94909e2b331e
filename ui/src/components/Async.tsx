import type { ReactNode } from 'react';
import type { ApiFailure, FailureKind } from '../api/client';
import type { Loaded } from '../api/useApi';

const TITLES: Record<FailureKind, string> = {
  unreachable: 'The Sluice API is down',
  unavailable: 'A store is unavailable',
  unauthenticated: 'Not signed in',
  forbidden: 'Not allowed',
  invalid: 'Invalid request',
  notFound: 'Not found',
  server: 'The Sluice API failed',
};

export function ErrorPanel({ error, onRetry }: { error: ApiFailure; onRetry?: () => void }) {
  return (
    <div className="panel error" role="alert" data-testid="api-error" data-kind={error.kind}>
      <strong>
        <span aria-hidden="true">⚠ </span>
        {TITLES[error.kind]}
      </strong>
      <p>
        {error.message}
        {error.status > 0 ? ` (HTTP ${error.status})` : ''}
      </p>
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status" aria-busy="true" data-testid="loading">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return (
    <p className="empty" data-testid="empty">
      {children}
    </p>
  );
}

/** Shows the loading state, the error state (with retry), or the loaded data. */
export function AsyncView<T>({
  state,
  what,
  children,
}: {
  state: Loaded<T> & { reload?: () => void };
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (state.status === 'loading') return <Loading what={what} />;
  if (state.status === 'error') return <ErrorPanel error={state.error} onRetry={state.reload} />;
  return <>{children(state.data)}</>;
}
