import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StaticSession } from '../api/session';
import type { Me } from '../api/types';
import { Rules } from '../pages/TierPage';
import { draftOf, requestOf } from './RuleEditor';

const book = {
  version: 4,
  loaded: true,
  rules: [
    {
      id: 'etl-push',
      scope: { cluster: null, queue: 'etl', jobKey: null },
      tier: 'SPARK_PUSH',
      percent: 25,
      note: '<b>note</b>',
    },
  ],
  denies: [{ id: 'no-adhoc', scope: { cluster: 'prod', queue: 'adhoc', jobKey: null }, reason: 'too small' }],
};

afterEach(() => vi.unstubAllGlobals());

function rules(me: Me) {
  vi.stubGlobal(
    'fetch',
    vi.fn().mockImplementation(async () => new Response(JSON.stringify(book), { status: 200 })),
  );
  return render(
    <StaticSession me={me}>
      <Rules onChanged={() => {}} />
    </StaticSession>,
  );
}

describe('rollout rule editing', () => {
  it('turns a draft into the existing PUT body, blank scope parts meaning any', () => {
    const d = { ...draftOf(book.rules[0], 'rule'), percent: '12.5', cluster: ' ' };
    expect(requestOf(d)).toEqual({
      path: '/api/v1/tiers/rules/etl-push',
      body: {
        cluster: null,
        queue: 'etl',
        jobKey: null,
        tier: 'SPARK_PUSH',
        percent: 12.5,
        note: '<b>note</b>',
      },
    });
    expect(requestOf(draftOf(book.denies[0], 'deny'))).toEqual({
      path: '/api/v1/tiers/denies/no-adhoc',
      body: { cluster: 'prod', queue: 'adhoc', jobKey: null, reason: 'too small' },
    });
  });

  it('shows edit controls to an admin only', async () => {
    const admin = rules({ user: 'ada', roles: ['ADMIN'] });
    await waitFor(() => expect(screen.getByTestId('tier-rules')).toBeTruthy());
    expect(screen.getByRole('button', { name: 'Edit rule etl-push' })).toBeTruthy();
    expect(screen.getByTestId('add-rule')).toBeTruthy();
    admin.unmount();

    rules({ user: 'otto', roles: ['VIEWER', 'OPERATOR'] });
    await waitFor(() => expect(screen.getByTestId('tier-rules')).toBeTruthy());
    expect(screen.queryAllByRole('button')).toEqual([]);
    expect(screen.getByText('<b>note</b>')).toBeTruthy();
  });
});
