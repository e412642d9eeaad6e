import { Alert } from 'antd';
import { errorLine } from '../fieldErrors';
import type { ServerError } from './formSubmit';

/** The gateway's message for a failed submit, with its field errors listed by label (at most 20). */
export function FormErrorSummary({ message, errors, labelOf }: { message: string; errors: ServerError[]; labelOf: (path: string) => string | undefined }) {
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      message={message}
      description={
        errors.length > 0 ? (
          <ul style={{ margin: 0, paddingLeft: 18 }}>
            {errors.slice(0, 20).map((x) => (
              <li key={`${x.field}:${x.message}`}>{errorLine(x, labelOf)}</li>
            ))}
            {errors.length > 20 && <li>……共 {errors.length} 处错误</li>}
          </ul>
        ) : undefined
      }
      style={{ marginBottom: 16 }}
    />
  );
}
