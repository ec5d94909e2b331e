import { useMemo } from 'react';
import { useQueryState } from './useQueryState';
import { periodOf } from './urlState';

const DEFAULTS = { range: '7d', from: '', to: '' };

/** The page's period from the URL, fixed for as long as the URL does not change (so it does not refetch). */
export function usePeriod() {
  const [q, setQ] = useQueryState(DEFAULTS);
  const period = useMemo(() => periodOf(q, Date.now()), [q]);
  const custom = !!(q.from && q.to);
  const setRange = (range: string) => setQ({ range, from: null, to: null });
  return { ...period, range: q.range, custom, setRange };
}
