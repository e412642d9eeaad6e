import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { Alert, Button, Card, Descriptions, Skeleton, Space, Statistic, Tag, Typography, Row, Col } from 'antd';
import type { DetailField, DetailSchema } from '../../schema/types';
import { fillPath } from '../../schema/routes';
import { matchesWhen } from '../../schema/when';
import { api, ApiError } from '../../services/request';
import { formatValue } from '../format';
import { DetailNotFound, notFoundMessage } from './DetailNotFound';

type Data = Record<string, unknown>;

const STATUS_COLORS: Record<string, string> = { Success: 'success', Processing: 'processing', Error: 'error', Warning: 'warning', Default: 'default' };

function renderValue(f: DetailField, data: Data) {
  const v = data[f.dataIndex];
  if (f.valueType === 'enum' && f.options) {
    const o = f.options.find((x) => x.value === String(v));
    return o ? <Tag color={STATUS_COLORS[o.status ?? 'Default']}>{o.label}</Tag> : formatValue(v, 'text');
  }
  return formatValue(v, f.valueType, f.options);
}

/** Static content (agreement text): blank-line separated paragraphs, lines starting with '#' as headings. */
function StaticContent({ text }: { text: string }) {
  return (
    <Typography>
      {text.split(/\n{2,}/).map((para, i) => {
        const t = para.trim();
        if (t.startsWith('#')) return <Typography.Title key={i} level={t.startsWith('##') ? 4 : 3}>{t.replace(/^#+\s*/, '')}</Typography.Title>;
        return <Typography.Paragraph key={i}>{t}</Typography.Paragraph>;
      })}
    </Typography>
  );
}

/** A detail page rendered from a detail schema: sections of labelled values fetched from the gateway. */
export function DetailPage({ schema, standalone, params: given }: { schema: DetailSchema; standalone?: boolean; params?: Record<string, string> }) {
  const routeParams = useParams();
  // The studio's preview names the record itself; pages take it from the route.
  const params = given ?? routeParams;
  const [data, setData] = useState<Data>();
  const [error, setError] = useState<ApiError>();
  const url = schema.api ? fillPath(schema.api, params as Data) : undefined;

  useEffect(() => {
    if (!url) return;
    let live = true;
    setData(undefined);
    setError(undefined);
    api
      .get<Data>(url)
      .then((d) => live && setData(d))
      .catch((e) => live && setError(e instanceof ApiError ? e : new ApiError('加载失败', 0, -1)));
    return () => {
      live = false;
    };
  }, [url]);

  if (error) {
    return notFoundMessage(error) ? (
      <DetailNotFound message={notFoundMessage(error)} />
    ) : (
      <Alert type="error" showIcon message={error.message} />
    );
  }

  const isOverview = schema.sections.length > 0 && schema.sections.every((s) => s.fields.every((f) => ['money', 'digit'].includes(f.valueType ?? '')));
  // An action with a condition waits for the record and is offered only when the gateway would accept it.
  const actions = (schema.actions ?? []).filter((a) => !a.when || matchesWhen(a.when, data)).map((a) =>
    a.href ? (
      <Button key={a.label} href={a.href} target="_blank">{a.label}</Button>
    ) : (
      <Link key={a.label} to={fillPath(a.to ?? '/', { ...params, ...data })}>
        <Button type={a.primary ? 'primary' : 'default'}>{a.label}</Button>
      </Link>
    ),
  );

  const content = (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      {schema.content && <StaticContent text={schema.content} />}
      {url && !data && <Skeleton active />}
      {data &&
        schema.sections.map((s) =>
          isOverview ? (
            <Card key={s.title} title={s.title}>
              <Row gutter={[16, 16]}>
                {s.fields.map((f) => (
                  <Col key={f.dataIndex} xs={24} sm={12} md={8}>
                    <Statistic title={f.label} value={formatValue(data[f.dataIndex], f.valueType)} />
                  </Col>
                ))}
              </Row>
            </Card>
          ) : (
            <Card key={s.title}>
              <Descriptions title={s.title} bordered column={{ xs: 1, md: 2, xl: 3 }}>
                {s.fields.map((f) => (
                  <Descriptions.Item key={f.dataIndex} label={f.label} span={f.span}>
                    {renderValue(f, data)}
                  </Descriptions.Item>
                ))}
              </Descriptions>
            </Card>
          ),
        )}
      {actions.length > 0 && <Space>{actions}</Space>}
    </Space>
  );
  return standalone ? <Card title={schema.title} style={{ maxWidth: 880, margin: '40px auto' }}>{content}</Card> : content;
}
