import { describe, expect, it } from 'vitest';
import { link, patchQuery, periodOf, readQuery } from './urlState';

const D = { q: '', sort: 'lastRun', dir: 'desc', page: '0' };

describe('URL state', () => {
  it('reads values over defaults and ignores keys the page does not declare', () => {
    expect(readQuery('?q=etl&page=3&other=x', D)).toEqual({
      q: 'etl',
      sort: 'lastRun',
      dir: 'desc',
      page: '3',
    });
  });

  it('leaves defaults and empty values out of the URL, keeps unrelated keys', () => {
    expect(patchQuery('?q=etl&page=3&keep=1', { page: '0', sort: 'runs', q: '' }, D)).toBe(
      '?keep=1&sort=runs',
    );
    expect(patchQuery('', { sort: 'lastRun' }, D)).toBe('');
  });

  it('round-trips values holding slashes, spaces, & and HTML', () => {
    const key = 'prod/etl/<script>alert(1)</script> & more';
    const s = patchQuery('', { q: key }, D);
    expect(readQuery(s, D).q).toBe(key);
    expect(link('/job', { jobKey: key, a: '', b: null })).toBe(
      '/job?jobKey=prod%2Fetl%2F%3Cscript%3Ealert%281%29%3C%2Fscript%3E+%26+more',
    );
  });

  it('uses an explicit period when valid, else the named range ending now', () => {
    const now = 1_700_000_000_000;
    expect(periodOf({ from: '100', to: '200', range: '1h' }, now)).toEqual({ from: 100, to: 200 });
    expect(periodOf({ range: '24h' }, now)).toEqual({ from: now - 86_400_000, to: now });
    expect(periodOf({ from: '300', to: '200', range: '1h' }, now)).toEqual({
      from: now - 3_600_000,
      to: now,
    });
    expect(periodOf({ range: 'bogus' }, now)).toEqual({ from: now - 7 * 86_400_000, to: now });
  });
});
