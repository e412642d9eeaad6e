import { Link } from 'react-router-dom';
import { Badge, Card } from 'antd';
import { formatValue } from '../../../format';
import { listLink, type Metric } from './links';
import { MetricList } from './MetricList';

/** 待办事项: each to-do with its count, linked to the list filtered the same way it was counted. */
export function TodoList({ todos, labelOf }: { todos: Metric[]; labelOf: (key: string) => string }) {
  return (
    <Card title="待办事项" data-testid="todos">
      <MetricList
        items={todos.map((t) => ({
          key: t.key,
          title: <Link to={listLink(t.list, t.query)}>{labelOf(t.key)}</Link>,
          description: t.amount !== undefined && t.value > 0 ? `合计 ${formatValue(t.amount, 'money')}` : undefined,
          extra: (
            <Link to={listLink(t.list, t.query)} data-testid={`wb-link-${t.key}`} data-value={t.value} aria-label={`${labelOf(t.key)} ${t.value}，查看列表`}>
              <Badge count={t.value} showZero overflowCount={9999} color={t.value > 0 ? '#fa8c16' : '#d9d9d9'} />
            </Link>
          ),
        }))}
      />
    </Card>
  );
}
