import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { App as AntApp, Button, ConfigProvider, Result, Spin } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { setMessageInstance } from './feedback';
import { observer } from 'mobx-react-lite';
import type { RouteNode } from '../schema/types';
import { routesFile, flattenRoutes } from '../schema/registry';
import { configureAuth } from '../services/request';
import type { RootStore } from '../stores/root';
import { StoresContext, useStores } from './context';
import { ConsoleLayout } from './ConsoleLayout';
import { SchemaPage } from './pages/SchemaPage';
import { PublicPage } from './pages/PublicPage';
import { denialFor } from './access';
import { documentTitle } from './menu';

const Loading = () => (
  <div style={{ padding: 80, textAlign: 'center' }}>
    <Spin size="large" />
  </div>
);

function useTitle(title: string) {
  useEffect(() => {
    document.title = documentTitle(title, routesFile.brand);
  }, [title]);
}

/** Signed-in routes: redirects to sign-in, to business choice, or shows why access is denied. */
const Guarded = observer(function Guarded({ route, children }: { route: RouteNode; children: ReactNode }) {
  const { user } = useStores();
  const location = useLocation();
  useTitle(route.title);
  if (!user.isLoggedIn) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  const needsBusiness = route.path !== '/mine/business';
  if (needsBusiness && !user.currentBusiness) return <Navigate to="/mine/business" replace />;
  const biz = user.currentBusiness;
  const denial = needsBusiness ? denialFor(route, { userType: biz?.userType, servicePacks: biz?.servicePacks ?? [] }) : null;
  if (denial) {
    return (
      <Result
        status="403"
        title="暂无权限"
        subTitle={
          denial.reason === 'servicePack'
            ? `当前企业未开通「${denial.servicePackName}」服务包，开通后即可使用${route.title}。`
            : '当前账号在该企业的角色无权访问此页面，请联系企业管理员。'
        }
      />
    );
  }
  return <Suspense fallback={<Loading />}>{children}</Suspense>;
});

function PublicRoute({ route }: { route: RouteNode }) {
  useTitle(route.title);
  return (
    <Suspense fallback={<Loading />}>
      <PublicPage route={route} />
    </Suspense>
  );
}

function NotFound() {
  useTitle('页面不存在');
  return <Result status="404" title="页面不存在" subTitle="您访问的页面不存在或已被移除。" extra={<Button href="#" onClick={() => history.back()}>返回</Button>} />;
}

dayjs.locale('zh-cn');

/** Points toasts at antd's App context (theme + locale aware). */
function FeedbackBridge() {
  const { message } = AntApp.useApp();
  useEffect(() => setMessageInstance(message), [message]);
  return null;
}

/** Waits for the stores to rehydrate (at most REHYDRATE_TIMEOUT_MS) before any page renders. */
function RehydrationGate({ store, children }: { store: RootStore; children: ReactNode }) {
  const [ready, setReady] = useState(store.rehydrated);
  useEffect(() => {
    if (!store.rehydrated) void store.rehydrate().then(() => setReady(true));
  }, [store]);
  return ready ? <>{children}</> : <Loading />;
}

export function App({ store, basename }: { store: RootStore; basename: string }) {
  useEffect(() => {
    configureAuth({
      getToken: () => store.user.token,
      getRefreshToken: () => store.user.refreshToken,
      getCompanyId: () => store.user.businessInfo.businessId,
      onTokens: (t, r) => store.user.setTokens(t, r),
      onAuthLost: () => store.logout(),
    });
  }, [store]);
  const leaves = flattenRoutes(routesFile.routes).filter((r) => r.page);
  const publicRoutes = leaves.filter((r) => r.public || r.navStyle === 'none');
  const consoleRoutes = leaves.filter((r) => !publicRoutes.includes(r));
  return (
    <ConfigProvider locale={zhCN}>
      <AntApp>
        <FeedbackBridge />
        <StoresContext.Provider value={store}>
          <RehydrationGate store={store}>
            <BrowserRouter basename={basename}>
              <Routes>
                {publicRoutes.map((r) => (
                  <Route key={r.path} path={r.path} element={<PublicRoute route={r} />} />
                ))}
                <Route element={<ConsoleLayout />}>
                  <Route path="/" element={<Navigate to={routesFile.defaultPath} replace />} />
                  {consoleRoutes.map((r) => (
                    <Route
                      key={r.path}
                      path={r.path}
                      element={
                        <Guarded route={r}>
                          <SchemaPage key={r.path} page={r.page!} />
                        </Guarded>
                      }
                    />
                  ))}
                  <Route path="*" element={<NotFound />} />
                </Route>
              </Routes>
            </BrowserRouter>
          </RehydrationGate>
        </StoresContext.Provider>
      </AntApp>
    </ConfigProvider>
  );
}
