import { Spin } from 'antd';

export const Loading = () => (
  <div style={{ padding: 80, textAlign: 'center' }}>
    <Spin size="large" />
  </div>
);
