/**
 * The echarts every workbench chart needs (tree-shaken through echarts/core): the core, the canvas
 * renderer and tooltips. Each chart kind adds its own parts (./echartsTrend, ./echartsPie), and each is
 * imported dynamically by the chart that draws it: echarts loads with the charts only, never with the
 * shell, and a chart kind's code only with a chart of that kind.
 */
import * as echarts from 'echarts/core';
import { TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([TooltipComponent, CanvasRenderer]);

export { echarts };
export type Echarts = typeof echarts;
