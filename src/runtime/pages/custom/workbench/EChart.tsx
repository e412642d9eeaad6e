import { useEffect, useRef, useState } from 'react';
import { Alert, Skeleton } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import type { Echarts } from './echarts';

/**
 * One echarts chart: `load` imports echarts with the parts this chart kind uses on first use (their own
 * chunks), the chart follows the option, resizes with its box and reports clicks on data items (index in
 * the series data).
 */
export function EChart({
  load,
  option,
  label,
  height = 300,
  onItemClick,
}: {
  load: () => Promise<{ echarts: Echarts }>;
  option: EChartsCoreOption;
  label: string;
  height?: number;
  onItemClick?: (dataIndex: number, seriesIndex: number) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<import('echarts/core').ECharts>();
  const click = useRef(onItemClick);
  click.current = onItemClick;
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');

  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | undefined;
    load()
      .then(({ echarts }) => {
        if (disposed || !box.current) return;
        chart.current = echarts.init(box.current, undefined, { renderer: 'canvas' });
        chart.current.on('click', (p) => {
          const e = p as { dataIndex?: number; seriesIndex?: number };
          if (typeof e.dataIndex === 'number') click.current?.(e.dataIndex, e.seriesIndex ?? 0);
        });
        // A box hidden while the next page loads (React hides the page it leaves) has no size: redrawing
        // the chart into nothing cost about 50 ms of the next page's first load. Shown again, it redraws.
        observer = new ResizeObserver((entries) => {
          const { width, height } = entries[entries.length - 1].contentRect;
          if (width > 0 && height > 0) chart.current?.resize();
        });
        observer.observe(box.current);
        setState('ready');
      })
      .catch(() => !disposed && setState('failed'));
    return () => {
      disposed = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = undefined;
    };
  }, []);

  useEffect(() => {
    // Charts draw at once for users who ask the system for reduced motion (and in review screenshots).
    const still = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
    if (state === 'ready') chart.current?.setOption(still ? { ...option, animation: false } : option, true);
  }, [option, state]);

  return (
    <div style={{ position: 'relative', height }}>
      {state === 'loading' && <Skeleton active style={{ position: 'absolute', inset: 0 }} />}
      {state === 'failed' && <Alert type="error" showIcon message="图表加载失败，请刷新重试" />}
      <div ref={box} role="img" aria-label={label} style={{ width: '100%', height: '100%', visibility: state === 'ready' ? 'visible' : 'hidden' }} />
    </div>
  );
}
