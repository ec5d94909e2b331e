import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiFailure, apiUrl, get, request } from './client';

function respond(status: number, body: string, contentType = 'application/json') {
  return vi
    .fn()
    .mockImplementation(async () => new Response(body, { status, headers: { 'Content-Type': contentType } }));
}

async function failure(p: Promise<unknown>): Promise<ApiFailure> {
  try {
    await p;
  } catch (e) {
    return e as ApiFailure;
  }
  throw new Error('expected a failure');
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
});

describe('apiUrl', () => {
  it('encodes job keys with slashes, spaces, ampersands and HTML, and drops empty values', () => {
    expect(
      apiUrl('/api/v1/ui/job', { jobKey: 'prod/etl/<b>a&b c</b>', empty: '', none: undefined, n: 0 }),
    ).toBe('/api/v1/ui/job?jobKey=prod%2Fetl%2F%3Cb%3Ea%26b+c%3C%2Fb%3E&n=0');
  });
});

describe('request', () => {
  it('parses JSON on success', async () => {
    vi.stubGlobal('fetch', respond(200, '{"total":3}'));
    expect(await get<{ total: number }>('/api/v1/ui/jobs')).toEqual({ total: 3 });
  });

  it('reports an unreachable API when fetch itself fails', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const f = await failure(get('/api/v1/ui/jobs'));
    expect(f.kind).toBe('unreachable');
    expect(f.status).toBe(0);
    expect(f.message).toMatch(/cannot be reached/);
  });

  it('passes on the service message of a 503 (store down)', async () => {
    vi.stubGlobal(
      'fetch',
      respond(
        503,
        JSON.stringify({
          status: 503,
          error: 'Service Unavailable',
          message: 'history store (H2) is unavailable: connection refused',
        }),
      ),
    );
    const f = await failure(get('/api/v1/ui/jobs'));
    expect(f.kind).toBe('unavailable');
    expect(f.message).toBe('history store (H2) is unavailable: connection refused');
  });

  it.each([
    [401, 'unauthenticated'],
    [403, 'forbidden'],
    [404, 'notFound'],
    [400, 'invalid'],
    [422, 'invalid'],
    [500, 'server'],
  ])('maps HTTP %i to %s', async (status, kind) => {
    vi.stubGlobal('fetch', respond(status as number, '{"message":"m","field":"jobKey"}'));
    const f = await failure(get('/x'));
    expect(f.kind).toBe(kind);
    expect(f.field).toBe('jobKey');
  });

  it('does not show an HTML error page as the message', async () => {
    vi.stubGlobal('fetch', respond(502, '<html><body>Bad gateway</body></html>', 'text/html'));
    const f = await failure(get('/x'));
    expect(f.kind).toBe('server');
    expect(f.message).toBe('The Sluice API failed on this request.');
  });

  it('refuses a 200 that is not JSON (e.g. the app shell for a missing API route)', async () => {
    vi.stubGlobal('fetch', respond(200, '<!doctype html><div id="root"></div>', 'text/html'));
    const f = await failure(get('/api/v1/ui/nothing'));
    expect(f.kind).toBe('server');
    expect(f.message).toMatch(/not JSON/);
  });

  it('sends the CSRF cookie as X-XSRF-TOKEN on writes only', async () => {
    document.cookie = 'XSRF-TOKEN=abc%3D123';
    const fetch = respond(200, '{}');
    vi.stubGlobal('fetch', fetch);
    await request('/api/v1/jobs/freeze?jobKey=a', { method: 'POST' });
    await get('/api/v1/ui/jobs');
    expect(fetch.mock.calls[0][1].headers['X-XSRF-TOKEN']).toBe('abc=123');
    expect(fetch.mock.calls[0][1].method).toBe('POST');
    expect(fetch.mock.calls[1][1].headers['X-XSRF-TOKEN']).toBeUndefined();
  });
});
