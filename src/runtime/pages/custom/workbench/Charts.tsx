import { useMemo } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Card, Col, Empty, Row } from 'antd';
import { formatValue } from '../../../format';
import { EChart } from './EChart';
import { listLink } from './links';
import { MetricList } from './MetricList';

export interface TrendPoint {
  month: string;
  people: number;
  premium: number;
  query: Record<string, string>;
}

export interface PlanSlice {
  plan: string;
  people: number;
  premium: number;
  query: Record<string, string>;
}

/** Colours of the plans, shared by the pie and its list (the list is the pie's legend). */
const PALETTE = ['#1677ff', '#52c41a', '#fa8c16', '#722ed1', '#13c2c2', '#eb2f96', '#faad14', '#2f54eb'];

const loadTrend = () => import('./echartsTrend');
const loadPie = () => import('./echartsPie');

const monthLabel = (m: string) => `${m.slice(2, 4)}年${Number(m.slice(5))}月`;

/** 近 12 个月参保人数与保费: premium bars and insured people line; a month opens its orders. */
export function TrendChart({ trend }: { trend: TrendPoint[] }) {
  const navigate = useNavigate();
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { data: ['保费（元）', '参保人数'], top: 0, left: 'center' },
      grid: { left: 64, right: 56, top: 56, bottom: 28 },
      xAxis: { type: 'category', data: trend.map((t) => monthLabel(t.month)) },
      yAxis: [
        { type: 'value', name: '保费（元）' },
        { type: 'value', name: '人数', minInterval: 1 },
      ],
      series: [
        { name: '保费（元）', type: 'bar', data: trend.map((t) => t.premium), itemStyle: { color: '#1677ff' }, cursor: 'pointer' },
        { name: '参保人数', type: 'line', yAxisIndex: 1, data: trend.map((t) => t.people), itemStyle: { color: '#fa8c16' }, smooth: true },
      ],
    }),
    [trend],
  );
  const total = trend.reduce((s, t) => s + t.premium, 0);
  return (
    <Card title="近 12 个月参保人数与保费" extra={<span>合计 {formatValue(total, 'money')}</span>} data-testid="chart-trend">
      <EChart
        load={loadTrend}
        option={option}
        label={`近 12 个月保费与参保人数：${trend.map((t) => `${monthLabel(t.month)} ${formatValue(t.premium, 'money')}、${t.people} 人`).join('；')}`}
        onItemClick={(i) => navigate(listLink('order', trend[i].query))}
      />
    </Card>
  );
}

/** 按方案分布: premium per plan over the same 12 months; a plan opens its orders. */
export function PlanChart({ plans }: { plans: PlanSlice[] }) {
  const navigate = useNavigate();
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'item', formatter: '{b}<br/>保费 ¥{c}（{d}%）' },
      color: PALETTE,
      series: [
        {
          name: '保费',
          type: 'pie',
          radius: ['40%', '68%'],
          center: ['50%', '50%'],
          label: { show: false },
          data: plans.map((p) => ({ name: p.plan, value: p.premium })),
          cursor: 'pointer',
        },
      ],
    }),
    [plans],
  );
  return (
    <Card title="按方案分布（近 12 个月）" data-testid="chart-plans">
      {plans.length === 0 ? (
        <Empty description="近 12 个月没有订单" />
      ) : (
        <Row gutter={16}>
          <Col xs={24} xl={12}>
            <EChart load={loadPie} option={option} height={260} label={`按方案的保费分布：${plans.map((p) => `${p.plan} ${formatValue(p.premium, 'money')}`).join('；')}`} onItemClick={(i) => navigate(listLink('order', plans[i].query))} />
          </Col>
          <Col xs={24} xl={12}>
            <MetricList
              testId="plan-list"
              items={plans.map((p, i) => ({
                key: p.plan,
                avatar: <span aria-hidden style={{ display: 'inline-block', width: 12, height: 12, borderRadius: 6, background: PALETTE[i % PALETTE.length] }} />,
                title: p.plan,
                description: `${formatValue(p.people, 'digit')} 人次`,
                extra: <Link to={listLink('order', p.query)}>{formatValue(p.premium, 'money')}</Link>,
              }))}
            />
          </Col>
        </Row>
      )}
    </Card>
  );
}
