import { Link } from 'react-router-dom';
import { Button, Card, Col, Row, Space, Statistic } from 'antd';
import { getDetail } from '../../../schema/registry';
import { formatValue } from '../../format';
import { SectionLinks } from '../../layouts/MineLayout';
import { useLoad } from './useLoad';
import { LoadState } from './LoadState';
import { PlanChart, TrendChart, type PlanSlice, type TrendPoint } from './workbench/Charts';
import { listLink, type Metric } from './workbench/links';
import { TodoList } from './workbench/TodoList';
import { usePrefetchWhenIdle } from '../prefetch';
import { routePreloads } from '../../nav/preloadRoute';

interface WorkbenchData {
  month: string;
  stats: Metric[];
  todos: Metric[];
  trend: TrendPoint[];
  byPlan: PlanSlice[];
}

/** Labels come from the workbench schema (schemas/details/home.json). */
function labelOf(key: string): string {
  for (const s of getDetail('home').sections) {
    const f = s.fields.find((x) => x.dataIndex === key);
    if (f) return f.label;
  }
  return key;
}

/**
 * How long after its numbers are shown the workbench starts loading the code of the lists they link to
 * (in idle periods): soon, so that the code is there when the user clicks. At 1.5 s it was still arriving
 * when a user who clicked 2 s after the page loaded opened the order list, which then waited for it.
 */
const LINKED_AFTER_MS = 300;

/**
 * /mine/home: the business's numbers, its to-do list and 12-month charts from GET /api/overview/workbench.
 * Every number links to the list it was counted from, filtered the same way (so both show the same total).
 */
export function Workbench() {
  const load = useLoad<WorkbenchData>('/api/overview/workbench', '工作台数据');
  const actions = getDetail('home').actions ?? [];
  // Every number links to a list: the code of those lists (their layout and pages) loads while the user
  // reads the numbers, so a click waits only for the list's rows.
  const linked = load.data ? [...load.data.stats, ...load.data.todos].map((m) => listLink(m.list, m.query)) : [];
  usePrefetchWhenIdle(Boolean(load.data), routePreloads(linked), LINKED_AFTER_MS);
  return (
    <Row gutter={[16, 16]}>
      <Col span={24}>
        <Card title="业务概览" data-testid="overview">
          <LoadState load={load}>
            {(d) => {
              const inTodos = new Set(d.todos.map((t) => t.key));
              return (
                <Row gutter={[16, 16]}>
                  {d.stats
                    .filter((s) => !inTodos.has(s.key))
                    .map((s) => (
                      <Col key={s.key} flex="1 1 200px">
                        <Link to={listLink(s.list, s.query)} data-testid={`wb-link-${s.key}`} data-value={s.value}>
                          <Card hoverable size="small">
                            <Statistic title={labelOf(s.key)} value={formatValue(s.value, s.valueType)} />
                          </Card>
                        </Link>
                      </Col>
                    ))}
                </Row>
              );
            }}
          </LoadState>
        </Card>
      </Col>
      {load.data && (
        <>
          <Col xs={24} xl={16}>
            <TrendChart trend={load.data.trend} />
          </Col>
          <Col xs={24} xl={8}>
            <TodoList todos={load.data.todos} labelOf={labelOf} />
          </Col>
          <Col span={24}>
            <PlanChart plans={load.data.byPlan} />
          </Col>
        </>
      )}
      <Col span={24}>
        <Card title="快捷入口">
          <Space direction="vertical" size="middle">
            <Space wrap>
              {actions.map((a) => (
                <Link key={a.label} to={a.to ?? '/'}>
                  <Button type={a.primary ? 'primary' : 'default'}>{a.label}</Button>
                </Link>
              ))}
            </Space>
            <SectionLinks />
          </Space>
        </Card>
      </Col>
    </Row>
  );
}
