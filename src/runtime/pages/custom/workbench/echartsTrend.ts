/** Bars and lines on a category axis with a legend (TrendChart), on top of ./echarts. */
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendPlainComponent } from 'echarts/components';
import { echarts } from './echarts';

echarts.use([BarChart, LineChart, GridComponent, LegendPlainComponent]);

export { echarts };
