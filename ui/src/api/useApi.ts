import { useCallback, useEffect, useState } from 'react';
import { ApiFailure, apiUrl, get, type Params } from './client';

export type Loaded<T> =
  | { status: 'loading'; data?: undefined; error?: undefined }
  | { status: 'ok'; data: T; error?: undefined }
  | { status: 'error'; data?: undefined; error: ApiFailure };

/** Loads {@code path} with {@code params} (null path: nothing to load yet); reloads when the URL they make changes. */
export function useApi<T>(path: string | null, params?: Params): Loaded<T> & { reload: () => void } {
  const url = path === null ? null : apiUrl(path, params);
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);

  useEffect(() => {
    if (url === null) return;
    const ctl = new AbortController();
    setState({ status: 'loading' });
    get<T>(url, undefined, ctl.signal).then(
      (data) => setState({ status: 'ok', data }),
      (e) => {
        if (ctl.signal.aborted) return;
        setState({
          status: 'error',
          error: e instanceof ApiFailure ? e : new ApiFailure('server', 0, String(e)),
        });
      },
    );
    return () => ctl.abort();
  }, [url, tick]);

  return { ...state, reload };
}
