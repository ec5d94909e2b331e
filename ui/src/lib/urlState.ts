/**
 * Page state that lives in the URL's query string, so every view can be pasted into a ticket. A page declares its
 * keys with their defaults; values equal to the default are left out of the URL, unknown keys are kept.
 */
export type QueryDefaults = Record<string, string>;

export function readQuery<D extends QueryDefaults>(search: string, defaults: D): D {
  const p = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const out: Record<string, string> = { ...defaults };
  for (const k of Object.keys(defaults)) {
    const v = p.get(k);
    if (v !== null) out[k] = v;
  }
  return out as D;
}

/** The query string after applying {@code patch} to {@code search}; a default or empty value removes its key. */
export function patchQuery(
  search: string,
  patch: Record<string, string | number | null | undefined>,
  defaults: QueryDefaults,
): string {
  const p = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  for (const [k, raw] of Object.entries(patch)) {
    const v = raw === null || raw === undefined ? '' : String(raw);
    if (v === '' || v === defaults[k]) p.delete(k);
    else p.set(k, v);
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** Builds an in-app link with query parameters, leaving out empty ones. */
export function link(path: string, params: Record<string, string | number | null | undefined> = {}): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== null && v !== undefined && v !== '') p.set(k, String(v));
  }
  const s = p.toString();
  return s ? `${path}?${s}` : path;
}

export const RANGES: Record<string, number> = {
  '1h': 3_600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
  '90d': 90 * 86_400_000,
};

/**
 * The period a page shows: an explicit {@code from}/{@code to} (epoch ms) when both are valid, else the named
 * {@code range} ending now (an unknown range falls back to 7 days).
 */
export function periodOf(
  q: { range?: string; from?: string; to?: string },
  now: number,
): { from: number; to: number } {
  const from = Number(q.from);
  const to = Number(q.to);
  if (q.from && q.to && Number.isFinite(from) && Number.isFinite(to) && from < to) {
    return { from, to };
  }
  const span = RANGES[q.range ?? ''] ?? RANGES['7d'];
  return { from: now - span, to: now };
}
