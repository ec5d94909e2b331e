import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DiffView, diffRows } from './DiffView';

const diff = {
  a: { cluster: 'prod', appId: 'app-1', attemptId: '', jobKey: 'j', startTime: 1 },
  b: { cluster: 'prod', appId: 'app-2', attemptId: '', jobKey: 'j', startTime: 2 },
  changed: [{ key: 'spark.sql.shuffle.partitions', a: '200', b: '50' }],
  onlyA: [{ key: 'spark.b.only.a', value: 'x' }],
  onlyB: [{ key: 'spark.a.only.b', value: '<img src=x onerror=alert(1)>' }],
};

describe('the configuration diff', () => {
  it('has exactly one row per differing key, sorted by key', () => {
    expect(diffRows(diff)).toEqual([
      { key: 'spark.a.only.b', kind: 'onlyB', a: null, b: '<img src=x onerror=alert(1)>' },
      { key: 'spark.b.only.a', kind: 'onlyA', a: 'x', b: null },
      { key: 'spark.sql.shuffle.partitions', kind: 'changed', a: '200', b: '50' },
    ]);
  });

  it('renders the keys, both values and values as text', () => {
    const { container } = render(<DiffView diff={diff} />);
    const rows = within(screen.getByTestId('diff-table')).getAllByRole('row').slice(1);
    expect(rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent))).toEqual([
      ['spark.a.only.b', 'only in B', 'not set', '<img src=x onerror=alert(1)>'],
      ['spark.b.only.a', 'only in A', 'x', 'not set'],
      ['spark.sql.shuffle.partitions', 'changed', '200', '50'],
    ]);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByText(/3 keys differ/)).toBeTruthy();
  });

  it('says so when nothing differs', () => {
    render(<DiffView diff={{ ...diff, changed: [], onlyA: [], onlyB: [] }} />);
    expect(screen.getByTestId('empty').textContent).toMatch(/same Spark properties/);
  });
});
