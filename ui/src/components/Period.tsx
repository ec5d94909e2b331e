import { RANGES } from '../lib/urlState';

const LABELS: Record<string, string> = {
  '1h': 'Last hour',
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
};

/** The period picker: a named range ending now (the custom from/to of a pasted link is kept until changed). */
export function PeriodPicker({
  range,
  custom,
  onChange,
}: {
  range: string;
  custom: boolean;
  onChange: (range: string) => void;
}) {
  return (
    <label className="period">
      Period{' '}
      <select
        value={custom ? 'custom' : range}
        onChange={(e) => onChange(e.target.value)}
        data-testid="period"
      >
        {custom && <option value="custom">Custom (from the link)</option>}
        {Object.keys(RANGES).map((r) => (
          <option key={r} value={r}>
            {LABELS[r]}
          </option>
        ))}
      </select>
    </label>
  );
}
