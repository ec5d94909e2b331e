/** Severity, fate and state shown with an icon AND a word: colour is never the only signal. */
const SEVERITY_ICONS: Record<string, string> = {
  CRITICAL: '✖',
  SEVERE: '▲',
  MODERATE: '◆',
  LOW: '○',
  NONE: '✓',
};

export function SeverityBadge({ severity }: { severity: string | null | undefined }) {
  const s = (severity ?? 'NONE').toUpperCase();
  return (
    <span className={`badge sev-${s.toLowerCase()}`} data-severity={s}>
      <span aria-hidden="true">{SEVERITY_ICONS[s] ?? '•'} </span>
      {s}
    </span>
  );
}

const FATE_ICONS: Record<string, string> = { KEPT: '✓', ROLLED_BACK: '↩', SUPERSEDED: '⤳', PENDING: '…' };
const FATE_WORDS: Record<string, string> = {
  KEPT: 'kept',
  ROLLED_BACK: 'rolled back',
  SUPERSEDED: 'superseded',
  PENDING: 'pending',
};

export function FateBadge({ fate }: { fate: string }) {
  return (
    <span className={`badge fate-${fate.toLowerCase()}`} data-fate={fate}>
      <span aria-hidden="true">{FATE_ICONS[fate] ?? '•'} </span>
      {FATE_WORDS[fate] ?? fate}
    </span>
  );
}

export function StateBadge({ state }: { state: string | null | undefined }) {
  const s = state ?? 'UNKNOWN';
  const abnormal = /ABNORMAL|OVERLOAD|DEGRADED|HOLD|THROTTL/i.test(s);
  return (
    <span className={`badge state ${abnormal ? 'state-bad' : ''}`} data-state={s}>
      {abnormal && <span aria-hidden="true">⚠ </span>}
      {s}
    </span>
  );
}
