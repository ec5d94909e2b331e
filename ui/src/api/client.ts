/**
 * The one way the UI talks to tuner-service. Every failure becomes an {@link ApiFailure} with a kind the pages can
 * show without guessing: the API unreachable, a store down (503), not signed in, not allowed, bad input, or a
 * server fault.
 */
export type FailureKind =
  'unreachable' | 'unavailable' | 'unauthenticated' | 'forbidden' | 'invalid' | 'notFound' | 'server';

export class ApiFailure extends Error {
  readonly kind: FailureKind;
  readonly status: number;
  readonly field?: string;

  constructor(kind: FailureKind, status: number, message: string, field?: string) {
    super(message);
    this.name = 'ApiFailure';
    this.kind = kind;
    this.status = status;
    this.field = field;
  }
}

export type Params = Record<string, string | number | boolean | undefined | null>;

/** Builds {@code path?query}, leaving out empty values; values are URL-encoded (job keys can hold '/', '&', HTML). */
export function apiUrl(path: string, params?: Params): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params ?? {})) {
    if (v !== undefined && v !== null && v !== '') {
      q.set(k, String(v));
    }
  }
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

function cookie(name: string): string | undefined {
  if (typeof document === 'undefined') {
    return undefined;
  }
  for (const part of document.cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) {
      return decodeURIComponent(v.join('='));
    }
  }
  return undefined;
}

function kindOf(status: number): FailureKind {
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'notFound';
  if (status === 503) return 'unavailable';
  if (status >= 400 && status < 500) return 'invalid';
  return 'server';
}

const DEFAULT_MESSAGES: Record<FailureKind, string> = {
  unreachable: 'The Sluice API cannot be reached. Is tuner-service running?',
  unavailable: 'A store behind the Sluice API is unavailable.',
  unauthenticated: 'You are not signed in.',
  forbidden: 'Your role does not allow this.',
  invalid: 'The request was refused as invalid.',
  notFound: 'Not found.',
  server: 'The Sluice API failed on this request.',
};

/** Turns a failed response into an {@link ApiFailure}, using the service's {@code ApiError} body when there is one. */
export async function failureOf(res: Response): Promise<ApiFailure> {
  const kind = kindOf(res.status);
  let message = '';
  let field: string | undefined;
  try {
    const text = await res.text();
    try {
      const body = JSON.parse(text) as { message?: unknown; error?: unknown; field?: unknown };
      message =
        typeof body.message === 'string' ? body.message : typeof body.error === 'string' ? body.error : '';
      field = typeof body.field === 'string' ? body.field : undefined;
    } catch {
      message = text.length < 300 && !text.trimStart().startsWith('<') ? text.trim() : '';
    }
  } catch {
    // an unreadable body keeps the default message
  }
  return new ApiFailure(kind, res.status, message || DEFAULT_MESSAGES[kind], field);
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
}

let base = '';

/** Where the API lives; the same origin by default (tuner-service serves the UI). */
export function setApiBase(url: string): void {
  base = url.replace(/\/$/, '');
}

export async function request<T>(url: string, opts: RequestOptions = {}): Promise<T> {
  const method = opts.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  if (method !== 'GET') {
    const xsrf = cookie('XSRF-TOKEN');
    if (xsrf) {
      headers['X-XSRF-TOKEN'] = xsrf;
    }
  }
  let res: Response;
  try {
    res = await fetch(base + url, {
      method,
      headers,
      credentials: 'same-origin',
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: opts.signal,
    });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') {
      throw e;
    }
    throw new ApiFailure('unreachable', 0, DEFAULT_MESSAGES.unreachable);
  }
  if (!res.ok) {
    throw await failureOf(res);
  }
  if (res.status === 204) {
    return undefined as T;
  }
  const text = await res.text();
  if (!text) {
    return undefined as T;
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    // a proxy's HTML error page with a 200, or the SPA's index.html because the API route is missing
    throw new ApiFailure('server', res.status, 'The Sluice API answered with something that is not JSON.');
  }
}

export const get = <T>(path: string, params?: Params, signal?: AbortSignal) =>
  request<T>(apiUrl(path, params), { signal });
