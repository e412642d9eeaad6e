import { Button, List, Space, Tag, Typography } from 'antd';
import { observer } from 'mobx-react-lite';
import type { Business } from '../../../stores/user';
import { CHARGE_FORM_LABELS, USER_TYPE_LABELS, servicePackLabel } from '../../../shared/labels';

/** The business step of sign-in: name, charge form, service packs and role of each business. */
export const BusinessPicker = observer(function BusinessPicker({
  businesses,
  onPick,
}: {
  businesses: Business[];
  onPick: (b: Business) => void;
}) {
  return (
    <List
      data-testid="business-picker"
      header={<Typography.Text strong>请选择要进入的企业</Typography.Text>}
      dataSource={businesses}
      locale={{ emptyText: '当前账号未加入任何企业，请联系企业管理员。' }}
      renderItem={(b) => (
        <List.Item
          actions={[
            <Button key="enter" type="primary" size="small" onClick={() => onPick(b)} aria-label={`进入 ${b.businessName}`}>
              进入
            </Button>,
          ]}
        >
          <List.Item.Meta
            title={b.businessName}
            description={
              <Space size={4} wrap>
                <Tag color={b.chargeForm === 'prepaid' ? 'blue' : 'gold'}>{CHARGE_FORM_LABELS[b.chargeForm]}</Tag>
                <Tag>{USER_TYPE_LABELS[b.userType] ?? '成员'}</Tag>
                {b.servicePacks.map((p) => (
                  <Tag key={p} color="green">
                    {servicePackLabel(p)}服务包
                  </Tag>
                ))}
              </Space>
            }
          />
        </List.Item>
      )}
    />
  );
});
