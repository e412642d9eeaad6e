import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';
import { observer } from 'mobx-react-lite';
import { routesFile } from '../../schema/registry';
import { useStores } from '../context';
import { useDocumentTitle } from './useDocumentTitle';

/** 404 outside every layout: no signed-in menu, whoever visits. */
export const NotFound = observer(function NotFound() {
  const { user } = useStores();
  const navigate = useNavigate();
  useDocumentTitle('页面不存在');
  return (
    <Result
      status="404"
      title="页面不存在"
      subTitle="您访问的页面不存在或已被移除。"
      extra={
        user.isLoggedIn ? (
          <Button type="primary" onClick={() => navigate(routesFile.defaultPath)}>
            返回工作台
          </Button>
        ) : (
          <Button type="primary" onClick={() => navigate('/login/index')}>
            去登录
          </Button>
        )
      }
    />
  );
});
