/** Pie and doughnut charts (PlanChart), on top of ./echarts. */
import { PieChart } from 'echarts/charts';
import { echarts } from './echarts';

echarts.use([PieChart]);

export { echarts };
