import type { ConfDiff } from '../api/types';
import { Empty } from './Async';
import { TableHead } from './TableHead';

export type DiffRow = {
  key: string;
  kind: 'changed' | 'onlyA' | 'onlyB';
  a: string | null;
  b: string | null;
};

/** One row per key that differs between the two runs, sorted by key. */
export function diffRows(d: ConfDiff): DiffRow[] {
  const rows: DiffRow[] = [
    ...d.changed.map((c) => ({ key: c.key, kind: 'changed' as const, a: c.a, b: c.b })),
    ...d.onlyA.map((c) => ({ key: c.key, kind: 'onlyA' as const, a: c.value, b: null })),
    ...d.onlyB.map((c) => ({ key: c.key, kind: 'onlyB' as const, a: null, b: c.value })),
  ];
  return rows.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
}

const KIND_WORDS = { changed: 'changed', onlyA: 'only in A', onlyB: 'only in B' };

/** The configuration diff between runs A and B: exactly the keys whose values differ. */
export function DiffView({ diff }: { diff: ConfDiff }) {
  const rows = diffRows(diff);
  if (rows.length === 0) {
    return (
      <Empty>
        Runs {diff.a.appId} and {diff.b.appId} ran with the same Spark properties.
      </Empty>
    );
  }
  return (
    <table className="data diff" data-testid="diff-table">
      <caption>
        {rows.length} {rows.length === 1 ? 'key differs' : 'keys differ'} between A ({diff.a.appId}) and B (
        {diff.b.appId})
      </caption>
      <TableHead columns={['Key', 'Difference', 'A', 'B']} />
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} data-kind={r.kind}>
            <td className="key">{r.key}</td>
            <td>{KIND_WORDS[r.kind]}</td>
            <td className="val">{r.a ?? <em>not set</em>}</td>
            <td className="val">{r.b ?? <em>not set</em>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
