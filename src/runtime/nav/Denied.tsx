import { Result } from 'antd';

/** 暂无权限 (403) with antd's illustration; loaded in its own chunk the first time a page is denied. */
export function Denied({ subTitle }: { subTitle: string }) {
  return <Result status="403" title="暂无权限" subTitle={subTitle} />;
}
