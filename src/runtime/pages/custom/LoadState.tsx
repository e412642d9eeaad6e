import type { ReactNode } from 'react';
import { Alert, Skeleton } from 'antd';
import type { Load } from './useLoad';

/** Skeleton while loading, a Chinese error alert on failure, else the children for the data. */
export function LoadState<T>({ load, children }: { load: Load<T>; children: (data: T) => ReactNode }) {
  if (load.error) return <Alert type="error" showIcon role="alert" message={load.error} description="请稍后刷新重试；如果问题持续，请联系客服。" />;
  if (load.loading || load.data === undefined) return <Skeleton active />;
  return <>{children(load.data)}</>;
}
