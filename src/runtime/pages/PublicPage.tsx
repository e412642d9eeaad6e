import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Card, Typography } from 'antd';
import { message } from '../feedback';
import type { RouteNode } from '../../schema/types';
import { getDetail, getForm, routesFile } from '../../schema/registry';
import { useStores } from '../context';
import type { Business } from '../../stores/user';
import { LazyDetailPage as DetailPage, LazyFormPage as FormPage } from './lazy';


interface LoginResult {
  token: string;
  refreshToken: string;
  userTel: string;
  businessList: Business[];
}

/** Pages outside the layout (navStyle 'none'): sign-in, agreement, set-password. */
export function PublicPage({ route }: { route: RouteNode }) {
  const stores = useStores();
  const navigate = useNavigate();
  const location = useLocation();
  const page = route.page!;
  if (page.kind === 'detail') return <DetailPage schema={getDetail(page.schema)} standalone />;
  const schema = getForm(page.schema);
  const from = (location.state as { from?: string } | null)?.from;
  const isLogin = schema.submit.api === '/api/auth/login';

  const onSubmitted = isLogin
    ? (result: unknown) => {
        const r = result as LoginResult;
        stores.user.setSession(r);
        message.success('登录成功');
        if (!stores.user.businessInfo.businessId) navigate('/mine/business', { replace: true });
        else navigate(from && from !== '/login' ? from : routesFile.defaultPath, { replace: true });
      }
    : () => {
        message.success(schema.successMessage ?? '提交成功');
        navigate(schema.successRedirect ?? '/login');
      };

  return (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', background: 'linear-gradient(135deg,#e6f4ff,#f5f5f5)' }}>
      <Card style={{ width: 420 }}>
        <Typography.Title level={3} style={{ textAlign: 'center' }}>
          {schema.title}
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
          {routesFile.brand.replace(/^[·\s]+/, '')}
        </Typography.Paragraph>
        <FormPage
          schema={schema}
          bare
          onSubmitted={onSubmitted}
          extra={
            <div style={{ display: 'flex', justifyContent: 'space-between', marginTop: 12 }}>
              {isLogin ? <Link to="/set-password">忘记密码 / 设置密码</Link> : <Link to="/login">返回登录</Link>}
              <Link to="/agreement">《用户服务协议》</Link>
            </div>
          }
        />
      </Card>
    </div>
  );
}
