import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Tabs } from 'antd';

/** Tabs kept in the URL (?tab=key) so a reload or a link opens the same tab. */
export function UrlTabs({ items }: { items: Array<{ key: string; label: string; children: ReactNode }> }) {
  const [params, setParams] = useSearchParams();
  const active = items.some((i) => i.key === params.get('tab')) ? params.get('tab')! : items[0].key;
  return (
    <Tabs
      activeKey={active}
      destroyInactiveTabPane
      onChange={(k) => {
        const next = new URLSearchParams();
        if (k !== items[0].key) next.set('tab', k);
        setParams(next, { replace: true });
      }}
      items={items}
    />
  );
}
