import { Button, Result } from 'antd';
import { useLocation, useNavigate } from 'react-router-dom';
import { ApiError } from '../../services/request';
import { listPathOf } from './listPath';

/**
 * The gateway has no such record for this business: a 404, or a 400 on the route's id (an id that is no
 * record number at all, e.g. …/order-manage/abc). Returns the gateway's sentence for DetailNotFound.
 */
export function notFoundMessage(e: unknown): string | undefined {
  if (!(e instanceof ApiError)) return undefined;
  if (e.status === 404 || (e.status === 400 && e.fieldErrors.some((f) => f.field === 'id'))) return e.message || '该记录不存在';
  return undefined;
}

/**
 * What every detail shows for an id the business has no record of (a 404 from the gateway, a mistyped
 * or foreign id): 未找到, the gateway's sentence, and the way back to the list. One page for all details.
 */
export function DetailNotFound({ message }: { message?: string }) {
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <div data-testid="detail-not-found">
      <Result
        status="404"
        title="未找到"
        subTitle={message || '该记录不存在，或不属于当前企业'}
        extra={
          <Button type="primary" onClick={() => navigate(listPathOf(location.pathname, location.search))}>
            返回列表
          </Button>
        }
      />
    </div>
  );
}
