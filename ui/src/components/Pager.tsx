import { count } from '../lib/format';

export function Pager({
  total,
  page,
  size,
  onPage,
}: {
  total: number;
  page: number;
  size: number;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / size));
  const first = total === 0 ? 0 : page * size + 1;
  const last = Math.min(total, (page + 1) * size);
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" disabled={page <= 0} onClick={() => onPage(page - 1)}>
        ← Previous
      </button>
      <span data-testid="pager-status">
        {first}–{last} of {count(total)} (page {page + 1} of {pages})
      </span>
      <button type="button" disabled={page + 1 >= pages} onClick={() => onPage(page + 1)}>
        Next →
      </button>
    </nav>
  );
}
