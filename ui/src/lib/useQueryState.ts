import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import { patchQuery, readQuery, type QueryDefaults } from './urlState';

/** The page's URL query as state: reading gives defaults for missing keys, writing pushes a new history entry. */
export function useQueryState<D extends QueryDefaults>(
  defaults: D,
): [D, (patch: Partial<Record<keyof D, string | number | null>>, replace?: boolean) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const value = useMemo(() => readQuery(search, defaults), [search]);
  const set = useCallback(
    (patch: Partial<Record<keyof D, string | number | null>>, replace = false) => {
      navigate(location + patchQuery(search, patch as Record<string, string | number | null>, defaults), {
        replace,
      });
      // eslint-disable-next-line react-hooks/exhaustive-deps
    },
    [location, search, navigate],
  );
  return [value, set];
}
