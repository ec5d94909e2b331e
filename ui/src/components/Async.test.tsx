import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiFailure } from '../api/client';
import { AsyncView } from './Async';

describe('loading, error and loaded states', () => {
  it('shows loading, then the data', () => {
    const { rerender } = render(
      <AsyncView state={{ status: 'loading' }} what="jobs">
        {() => 'data'}
      </AsyncView>,
    );
    expect(screen.getByRole('status').textContent).toBe('Loading jobs…');
    rerender(
      <AsyncView state={{ status: 'ok', data: 3 }} what="jobs">
        {(n) => `${n} jobs`}
      </AsyncView>,
    );
    expect(screen.getByText('3 jobs')).toBeTruthy();
  });

  it('tells an unreachable API from a store that is down, and retries', () => {
    const reload = vi.fn();
    const { rerender } = render(
      <AsyncView
        what="jobs"
        state={{
          status: 'error',
          reload,
          error: new ApiFailure('unreachable', 0, 'The Sluice API cannot be reached.'),
        }}
      >
        {() => null}
      </AsyncView>,
    );
    expect(screen.getByRole('alert').textContent).toContain('The Sluice API is down');
    expect(screen.getByRole('alert').textContent).not.toContain('HTTP');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(reload).toHaveBeenCalledOnce();
    rerender(
      <AsyncView
        what="jobs"
        state={{
          status: 'error',
          reload,
          error: new ApiFailure('unavailable', 503, 'history store (ClickHouse) is unavailable'),
        }}
      >
        {() => null}
      </AsyncView>,
    );
    expect(screen.getByRole('alert').textContent).toBe(
      '⚠ A store is unavailablehistory store (ClickHouse) is unavailable (HTTP 503)Retry',
    );
  });
});
