import { Suspense, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { observer } from 'mobx-react-lite';
import { message } from '../feedback';
import type { FormSchema, RouteNode } from '../../schema/types';
import { getDetail, getForm, routesFile } from '../../schema/registry';
import { useStores } from '../context';
import type { Business } from '../../stores/user';
import { safeRedirect } from '../nav/tree';
import { brandName } from '../layouts/Brand';
import { LazyDetailPage as DetailPage, LazyFormPage as FormPage } from './lazy';
import { lazyWithRetry } from '../errors';
import { Loading } from '../layouts/Loading';
import { isPublicForm, PublicForm } from './PublicForm';
import { PublicCard } from './PublicCard';

// Shown only after the password step: not part of the sign-in page's first load.
const BusinessPicker = lazyWithRetry(() => import('./custom/BusinessPicker').then((m) => ({ default: m.BusinessPicker })));

interface LoginResult {
  token: string;
  refreshToken: string;
  userTel: string;
  businessList: Business[];
}

/** Sign-in and set-password are drawn with antd Form (small first load); other public forms with FormPage. */
function PublicFormView(props: { schema: FormSchema; bare: true; onSubmitted: (result: unknown) => void; extra: ReactNode }) {
  return isPublicForm(props.schema) ? <PublicForm {...props} /> : <FormPage {...props} />;
}

/**
 * Pages outside the signed-in layouts: sign-in (password, then choosing a business), agreement,
 * set-password. After sign-in the visitor returns to ?redirect= (a deep link) or the default landing.
 */
export const PublicPage = observer(function PublicPage({ route }: { route: RouteNode }) {
  const stores = useStores();
  const { user } = stores;
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const page = route.page!;
  if (page.kind === 'detail') return <DetailPage schema={getDetail(page.schema)} standalone />;
  if (page.kind !== 'form') throw new Error(`public route ${route.path} needs a form or detail page`);
  const schema = getForm(page.schema);
  const isLogin = schema.submit.api === '/api/auth/login';
  const target = safeRedirect(params.get('redirect')) ?? routesFile.defaultPath;
  const choosing = isLogin && user.isLoggedIn && !user.currentBusiness && params.get('step') === 'business';

  const enter = (b: Business) => {
    user.selectBusiness(b.businessId);
    message.success(`已进入 ${b.businessName}`);
    navigate(target, { replace: true });
  };

  const onSubmitted = isLogin
    ? (result: unknown) => {
        // The store enters the only business, or the one this phone entered last if it is still theirs.
        user.setSession(result as LoginResult);
        message.success('登录成功');
        const entered = user.currentBusiness;
        if (entered) return enter(entered);
        const next = new URLSearchParams(params);
        next.set('step', 'business');
        setParams(next, { replace: true });
      }
    : () => {
        message.success(schema.successMessage ?? '提交成功');
        navigate(schema.successRedirect ?? '/login/index');
      };

  return (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', background: 'linear-gradient(135deg,#e6f4ff,#f5f5f5)' }}>
      <PublicCard className="console-sign-in" style={{ width: choosing ? 560 : 420, maxWidth: 'calc(100vw - 32px)' }} title={choosing ? '选择企业' : schema.title} subtitle={brandName}>
        {choosing ? (
          <Suspense fallback={<Loading />}>
            <BusinessPicker businesses={user.businessList} onPick={enter} />
          </Suspense>
        ) : (
          <PublicFormView
            schema={schema}
            bare
            onSubmitted={onSubmitted}
            extra={
              <div style={{ display: 'flex', justifyContent: 'space-between', marginTop: 12 }}>
                {isLogin ? <Link to="/login/settingPassword">忘记密码 / 设置密码</Link> : <Link to="/login/index">返回登录</Link>}
                <Link to="/agreement/service">《服务协议》</Link>
              </div>
            }
          />
        )}
      </PublicCard>
    </div>
  );
});
