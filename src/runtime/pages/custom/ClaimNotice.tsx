import { Card, Typography } from 'antd';
import { formatValue } from '../../format';
import { useLoad } from './useLoad';
import { LoadState } from './LoadState';
import { SafeText } from './SafeText';

interface Content {
  key: string;
  title: string;
  body: string;
  updatedAt: string;
}

/** 理赔须知: text from the content service (GET /api/content/claim-notice), rendered as plain text. */
export function ClaimNotice() {
  const load = useLoad<Content>('/api/content/claim-notice', '理赔须知');
  return (
    <Card>
      <LoadState load={load}>
        {(c) => (
          <>
            <Typography.Title level={4}>{c.title}</Typography.Title>
            <Typography.Text type="secondary">更新时间：{formatValue(c.updatedAt, 'dateTime')}</Typography.Text>
            <div style={{ marginTop: 16 }} data-testid="claim-notice-body">
              <SafeText text={c.body} />
            </div>
          </>
        )}
      </LoadState>
    </Card>
  );
}
