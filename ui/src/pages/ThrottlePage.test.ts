import { describe, expect, it } from 'vitest';
import { appsOption, nodesOption } from './ThrottlePage';

type Series = { data: unknown[] }[];

describe('throttle charts', () => {
  it('draws each abnormal episode from its start to its end, open ones to the period end, clamped to the period', () => {
    const o = nodesOption(
      [
        {
          cluster: 'c',
          node: 'n1',
          state: 'ABNORMAL',
          since: 50,
          lastEventAt: 90,
          heldNow: 2,
          episodes: [
            { start: 5, end: 20, durationMs: 15, held: 3 },
            { start: 50, end: null, durationMs: 50, held: 7 },
          ],
        },
        { cluster: 'c', node: 'n2', state: 'NORMAL', since: null, lastEventAt: 10, heldNow: 0, episodes: [] },
      ],
      10,
      100,
    ) as { series: Series; yAxis: { data: string[] } };
    expect(o.yAxis.data).toEqual(['c/n1', 'c/n2']);
    expect(o.series[0].data).toEqual([
      { value: [0, 10, 20, 3, 15], name: 'c/n1' },
      { value: [0, 50, 100, 7, 50], name: 'c/n1' },
    ]);
  });

  it('lists applications by priority, lowest first, labelled with it', () => {
    const app = (appId: string, priority: number | null, held: number, directives: number) => ({
      cluster: 'c',
      appId,
      priority,
      held,
      released: 0,
      directives,
      heldMs: 0,
      sleepMs: 0,
      nodes: 1,
      firstAt: 0,
      lastAt: 0,
    });
    const o = appsOption([app('b', 3, 1, 0), app('a', 1, 9, 4)]) as {
      series: Series;
      yAxis: { data: string[] };
    };
    expect(o.yAxis.data).toEqual(['a (priority 1)', 'b (priority 3)']);
    expect(o.series[0].data).toEqual([9, 1]);
    expect(o.series[1].data).toEqual([4, 0]);
  });
});
