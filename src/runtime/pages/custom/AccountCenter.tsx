import { Card, Descriptions, Space, Tag } from 'antd';
import { observer } from 'mobx-react-lite';
import { getTable } from '../../../schema/registry';
import { useStores } from '../../context';
import { formatValue } from '../../format';
import { maskPhone } from '../../../shared/mask';
import { CHARGE_FORM_LABELS, USER_TYPE_LABELS, servicePackLabel } from '../../../shared/labels';
import type { Business } from '../../../stores/user';
import { LazyTablePage as TablePage } from '../lazy';
import { useLoad } from './useLoad';
import { LoadState } from './LoadState';

/** Account center: signed-in phone (masked), the current business, and all businesses (GET /api/businesses). */
export const AccountCenter = observer(function AccountCenter() {
  const { user } = useStores();
  const load = useLoad<Business[]>('/api/businesses', '企业信息');
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card title="当前账户">
        <LoadState load={load}>
          {(list) => {
            const biz = list.find((b) => b.businessId === user.businessInfo.businessId) ?? user.currentBusiness;
            return (
              <Descriptions bordered column={{ xs: 1, sm: 2 }} data-testid="account-info">
                <Descriptions.Item label="登录手机号">{maskPhone(user.userTel)}</Descriptions.Item>
                <Descriptions.Item label="当前企业">{biz?.businessName ?? '-'}</Descriptions.Item>
                <Descriptions.Item label="付费方式">{biz ? CHARGE_FORM_LABELS[biz.chargeForm] : '-'}</Descriptions.Item>
                <Descriptions.Item label="角色">{biz ? USER_TYPE_LABELS[biz.userType] ?? '-' : '-'}</Descriptions.Item>
                <Descriptions.Item label="账户余额">{formatValue(biz?.balance, 'money')}</Descriptions.Item>
                <Descriptions.Item label="已开通服务包">
                  {biz && biz.servicePacks.length > 0
                    ? biz.servicePacks.map((p) => (
                        <Tag key={p} color="green">
                          {servicePackLabel(p)}
                        </Tag>
                      ))
                    : '未开通'}
                </Descriptions.Item>
              </Descriptions>
            );
          }}
        </LoadState>
      </Card>
      <TablePage schema={getTable('businesses')} />
    </Space>
  );
});
