import { Link } from 'react-router-dom';
import { Card, Col, Row, Statistic } from 'antd';
import { getDetail } from '../../../schema/registry';
import type { ValueType } from '../../../schema/types';
import { formatValue } from '../../format';
import { SectionLinks } from '../../layouts/MineLayout';
import { useLoad } from './useLoad';
import { LoadState } from './LoadState';
import { PATHS } from './paths';

type Overview = Record<string, number>;

/** Each overview number and the filtered list it opens. */
const ITEMS: Array<{ key: string; label: string; valueType: ValueType; to: string }> = [
  { key: 'insuredCount', label: '在保人数', valueType: 'digit', to: `${PATHS.insurePersons}?status=insured` },
  { key: 'pendingCount', label: '待生效人数', valueType: 'digit', to: `${PATHS.insurePersons}?status=pending` },
  { key: 'monthPremium', label: '本月保费', valueType: 'money', to: PATHS.insuredRecord },
  { key: 'unpaidOrders', label: '待支付订单', valueType: 'digit', to: `${PATHS.orders}?payStatus=unpaid` },
  { key: 'openClaims', label: '处理中理赔', valueType: 'digit', to: `${PATHS.claims}?status=reviewing` },
  { key: 'balance', label: '账户余额', valueType: 'money', to: PATHS.accountCenter },
];

/** Labels come from the overview schema (schemas/details/home.json) when it names the field. */
function labelOf(key: string, fallback: string): string {
  for (const s of getDetail('home').sections) {
    const f = s.fields.find((x) => x.dataIndex === key);
    if (f) return f.label;
  }
  return fallback;
}

/** /mine/home: the business's numbers from GET /api/overview, each linking to its list, and section entries. */
export function Workbench() {
  const load = useLoad<Overview>('/api/overview', '工作台数据');
  return (
    <Row gutter={[16, 16]}>
      <Col span={24}>
        <Card title="业务概览" data-testid="overview">
          <LoadState load={load}>
            {(d) => (
              <Row gutter={[16, 16]}>
                {ITEMS.map((it) => (
                  <Col key={it.key} xs={24} sm={12} md={8}>
                    <Link to={it.to} data-testid={`overview-${it.key}`}>
                      <Card hoverable size="small">
                        <Statistic title={labelOf(it.key, it.label)} value={formatValue(d[it.key], it.valueType)} />
                      </Card>
                    </Link>
                  </Col>
                ))}
              </Row>
            )}
          </LoadState>
        </Card>
      </Col>
      <Col span={24}>
        <Card title="快捷入口">
          <SectionLinks />
        </Card>
      </Col>
    </Row>
  );
}
