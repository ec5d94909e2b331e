/**
 * HTML escaping for the one place the UI builds HTML strings: ECharts tooltip and label formatters, which ECharts
 * inserts as HTML without escaping. Everything else is rendered by React as text.
 */
const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"'`]/g, (c) => ENTITIES[c]);
}

/** A tooltip body: an escaped title line and escaped "name: value" lines. */
export function tooltipHtml(title: unknown, lines: [unknown, unknown][]): string {
  const rows = lines.map(([k, v]) => `${escapeHtml(k)}: <b>${escapeHtml(v)}</b>`);
  return [`<b>${escapeHtml(title)}</b>`, ...rows].join('<br/>');
}
