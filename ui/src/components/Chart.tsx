import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, CustomChart, LineChart, ScatterChart } from 'echarts/charts';
import {
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  MarkPointComponent,
  TooltipComponent,
} from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

// Only the charts and components the pages use, to keep the bundle small.
echarts.use([
  BarChart,
  CustomChart,
  LineChart,
  ScatterChart,
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  MarkPointComponent,
  TooltipComponent,
  CanvasRenderer,
]);

declare global {
  interface Window {
    /** The ECharts core module, so browser tests can read a chart's data with getInstanceByDom. */
    sluiceEcharts?: typeof echarts;
  }
}
if (typeof window !== 'undefined') {
  window.sluiceEcharts = echarts;
}

export type ChartOption = echarts.EChartsCoreOption;

/**
 * One ECharts chart. {@code label} is the accessible name; {@code summary} is a text alternative shown to screen
 * readers (the data stays available in the page's tables). Tooltip formatters must escape (lib/escape).
 */
export function Chart({
  option,
  label,
  id,
  height = 260,
  onClick,
}: {
  option: ChartOption;
  label: string;
  id: string;
  height?: number;
  onClick?: (params: { dataIndex: number; seriesIndex?: number }) => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    if (!ref.current) return;
    const c = echarts.init(ref.current, undefined, { renderer: 'canvas' });
    chart.current = c;
    const ro = typeof ResizeObserver !== 'undefined' ? new ResizeObserver(() => c.resize()) : null;
    ro?.observe(ref.current);
    return () => {
      ro?.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption({ animation: false, ...option }, true);
  }, [option]);

  useEffect(() => {
    const c = chart.current;
    if (!c || !onClick) return;
    const h = (p: unknown) => onClick(p as { dataIndex: number; seriesIndex?: number });
    c.on('click', h);
    return () => {
      c.off('click', h);
    };
  }, [onClick]);

  return <div ref={ref} className="chart" role="img" aria-label={label} data-chart={id} style={{ height }} />;
}
