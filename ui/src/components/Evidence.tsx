import { num } from '../lib/format';

/** A rule's evidence: named figures, as a definition list. */
export function Evidence({ evidence }: { evidence: Record<string, number> | null | undefined }) {
  const entries = Object.entries(evidence ?? {});
  if (entries.length === 0) return <span className="muted">—</span>;
  return (
    <dl className="evidence">
      {entries.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{num(v)}</dd>
        </div>
      ))}
    </dl>
  );
}
