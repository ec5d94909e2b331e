import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StaticSession } from '../api/session';
import type { Me } from '../api/types';
import { canAdminister, canOperate } from '../lib/roles';
import { JobActions } from './JobActions';

const viewer: Me = { user: 'vera', roles: ['VIEWER'] };
const operator: Me = { user: 'otto', roles: ['VIEWER', 'OPERATOR'], queues: ['etl'] };
const anyQueueOperator: Me = { user: 'olga', roles: ['VIEWER', 'OPERATOR'], queues: [] };
const admin: Me = { user: 'ada', roles: ['ADMIN'] };

afterEach(() => vi.unstubAllGlobals());

function actions(me: Me | null, queue = 'etl') {
  return render(
    <StaticSession me={me}>
      <JobActions
        jobKey="prod/etl/a b"
        queue={queue}
        frozen={false}
        pendingTrial={null}
        onChanged={() => {}}
      />
    </StaticSession>,
  );
}

describe('role-based controls', () => {
  it('follows the roles and queue limits', () => {
    expect(canOperate(viewer, 'etl')).toBe(false);
    expect(canOperate(operator, 'etl')).toBe(true);
    expect(canOperate(operator, 'adhoc')).toBe(false);
    expect(canOperate(anyQueueOperator, 'adhoc')).toBe(true);
    expect(canOperate(admin, 'adhoc')).toBe(true);
    expect(canOperate(null, 'etl')).toBe(false);
    expect(canAdminister(operator)).toBe(false);
    expect(canAdminister(admin)).toBe(true);
  });

  it('shows no edit control to a viewer or to an operator outside their queues', () => {
    actions(viewer);
    expect(screen.queryByTestId('job-actions')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('hides the controls from an operator on another queue', () => {
    actions(operator, 'adhoc');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('lets an operator freeze, and shows the refusal when the service says no', async () => {
    const fetch = vi
      .fn()
      .mockResolvedValue(new Response('{"message":"OPERATOR on queue etl required"}', { status: 403 }));
    vi.stubGlobal('fetch', fetch);
    actions(operator);
    fireEvent.click(screen.getByTestId('freeze'));
    await waitFor(() => expect(screen.getByTestId('api-error').dataset.kind).toBe('forbidden'));
    expect(fetch.mock.calls[0][0]).toBe('/api/v1/jobs/freeze?jobKey=prod%2Fetl%2Fa+b');
    expect(fetch.mock.calls[0][1].method).toBe('POST');
    expect(screen.getByTestId('api-error').textContent).toContain('OPERATOR on queue etl required');
  });
});
