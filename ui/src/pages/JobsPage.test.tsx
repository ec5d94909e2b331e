import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { JobsPage } from './JobsPage';

const FACETS = {
  clusters: ['prod'],
  queues: ['adhoc', 'etl'],
  users: ['bob'],
  states: ['STABLE', 'TUNING'],
  severities: ['SEVERE'],
};
const ROW = {
  jobKey: 'prod/etl/bob/<img src=x onerror=alert(1)>',
  cluster: 'prod',
  queue: 'etl',
  user: 'bob',
  state: 'TUNING',
  worstSeverity: 'SEVERE',
  lastRunAt: 1_700_000_000_000,
  runs: 7,
  lastWallMs: 31_000,
  frozen: false,
};

afterEach(() => vi.unstubAllGlobals());

// Answers arrive a little later, as over a network, so a test that queries the page before a reload has rendered
// fails every time rather than on a loaded machine only.
function serve() {
  const fetch = vi.fn().mockImplementation(async (url: string) => {
    await new Promise((r) => setTimeout(r, 150));
    return new Response(
      JSON.stringify(
        url.startsWith('/api/v1/ui/jobs/facets') ? FACETS : { total: 120, page: 2, size: 50, items: [ROW] },
      ),
    );
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function page(path: string) {
  const loc = memoryLocation({ path, record: true });
  const view = render(
    <Router hook={loc.hook} searchHook={loc.searchHook}>
      <JobsPage />
    </Router>,
  );
  return { loc, view };
}

const jobsCalls = (fetch: ReturnType<typeof vi.fn>) =>
  fetch.mock.calls.map((c) => c[0] as string).filter((u) => u.startsWith('/api/v1/ui/jobs?'));

describe('jobs page URL state', () => {
  it('asks the service for exactly what the URL says', async () => {
    const fetch = serve();
    page('/jobs?queue=etl&sort=runs&dir=asc&page=2');
    await screen.findByTestId('jobs-table');
    expect(jobsCalls(fetch)).toEqual(['/api/v1/ui/jobs?queue=etl&sort=runs&dir=asc&page=2&size=50']);
    expect(screen.getByRole('columnheader', { name: /Runs/ }).getAttribute('aria-sort')).toBe('ascending');
    expect(screen.getByTestId('pager-status').textContent).toBe('101–120 of 120 (page 3 of 3)');
  });

  it('writes filters, search and sorting to the URL and starts again from the first page', async () => {
    const fetch = serve();
    const { loc } = page('/jobs?page=2');
    await screen.findByTestId('jobs-table');
    await waitFor(() => expect(screen.getByRole('option', { name: 'adhoc' })).toBeTruthy());
    fireEvent.change(screen.getByTestId('filter-queue'), { target: { value: 'adhoc' } });
    await waitFor(() => expect(loc.history.at(-1)).toBe('/jobs?queue=adhoc'));
    fireEvent.change(screen.getByTestId('filter-q'), { target: { value: 'a/b c' } });
    fireEvent.submit(screen.getByRole('search'));
    await waitFor(() => expect(loc.history.at(-1)).toBe('/jobs?queue=adhoc&q=a%2Fb+c'));
    // the new search reloads the table: its sort buttons are back once the answer is rendered
    fireEvent.click(await screen.findByRole('button', { name: /Last wall time/ }));
    await waitFor(() => expect(loc.history.at(-1)).toBe('/jobs?queue=adhoc&q=a%2Fb+c&sort=wallMs'));
    await waitFor(() =>
      expect(jobsCalls(fetch).at(-1)).toBe(
        '/api/v1/ui/jobs?q=a%2Fb+c&queue=adhoc&sort=wallMs&dir=desc&page=0&size=50',
      ),
    );
  });

  it('shows stored names as text and links the job by its encoded key', async () => {
    serve();
    const { view } = page('/jobs');
    const table = await screen.findByTestId('jobs-table');
    const link = within(table).getByRole('link');
    expect(link.textContent).toBe(ROW.jobKey);
    expect(link.getAttribute('href')).toBe(
      '/job?jobKey=prod%2Fetl%2Fbob%2F%3Cimg+src%3Dx+onerror%3Dalert%281%29%3E',
    );
    expect(view.container.querySelector('img')).toBeNull();
    expect(within(table).getByText('SEVERE').closest('[data-severity]')?.textContent).toBe('▲ SEVERE');
  });
});
