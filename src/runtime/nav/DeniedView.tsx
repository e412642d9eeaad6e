import { Suspense } from 'react';
import { lazyWithRetry } from '../errors';
import { Loading } from '../layouts/Loading';

const Denied = lazyWithRetry(() => import('./Denied').then((m) => ({ default: m.Denied })));

/** The 403 screen (./Denied): its code, with antd's Result, loads only when a page is denied. */
export function DeniedView({ subTitle }: { subTitle: string }) {
  return (
    <Suspense fallback={<Loading />}>
      <Denied subTitle={subTitle} />
    </Suspense>
  );
}
