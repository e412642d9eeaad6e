import { useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { Alert, Button, Form, Input } from 'antd';
import type { FieldType, FormField, FormSchema } from '../../schema/types';
import { ApiError } from '../../services/request';
import { message } from '../feedback';
import { fieldValidator } from '../formSchema';
import { CONFIRM_MISMATCH, confirmMismatch, labelLookup, payloadOf, sendForm, type ServerError, type SubmitKeyRef } from './formSubmit';
import { FormErrorSummary } from './FormErrorSummary';
import { SmsCodeInput } from './SmsCodeInput';

/** Field types PublicForm draws; a public form with any other type is rendered by FormPage. */
const PUBLIC_TYPES: ReadonlySet<FieldType> = new Set<FieldType>(['string', 'phone', 'idCard', 'email', 'password', 'textarea', 'smsCode']);

/** Whether PublicForm can draw every field of the form (sign-in and set-password can). */
export function isPublicForm(schema: FormSchema): boolean {
  return schema.fields.every((f) => PUBLIC_TYPES.has(f.type));
}

/** 'phone' → ['phone'], 'rows[0].name' → ['rows', 0, 'name'] (antd's field name path). */
function namePath(field: string): Array<string | number> {
  return field
    .split(/[.[\]]+/)
    .filter(Boolean)
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

export interface PublicFormProps {
  schema: FormSchema;
  /** Replaces the default "message + redirect" after a successful submit (sign-in). */
  onSubmitted?: (result: unknown, values: Record<string, unknown>) => void;
  extra?: ReactNode;
}

/**
 * The forms of the public pages (sign-in, set-password), drawn from their form schema with antd Form
 * instead of Formily so that the sign-in page loads little code. Same rules as everywhere (each input is
 * checked by fieldValidator, i.e. the shared checkField the gateway runs too), same submit (formSubmit.ts:
 * confirmation check, Idempotency-Key per submit), gateway field errors on their fields until edited.
 */
export function PublicForm({ schema, onSubmitted, extra }: PublicFormProps) {
  const navigate = useNavigate();
  const [form] = Form.useForm<Record<string, unknown>>();
  const [serverErrors, setServerErrors] = useState<ServerError[]>([]);
  const [formError, setFormError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  const busy = useRef(false);
  const submitKey = useRef<SubmitKeyRef['current']>();
  const labelOf = labelLookup(schema.fields);
  const initialValues = Object.fromEntries(schema.fields.filter((f) => f.default !== undefined).map((f) => [f.name, f.default]));

  const submit = async (values: Record<string, unknown>) => {
    if (busy.current) return;
    setServerErrors([]);
    setFormError(undefined);
    const mismatch = confirmMismatch(schema, values);
    if (mismatch) {
      form.setFields([{ name: mismatch, errors: [CONFIRM_MISMATCH] }]);
      return;
    }
    busy.current = true;
    setSubmitting(true);
    try {
      const result = await sendForm(schema, payloadOf(schema, values), submitKey);
      if (onSubmitted) onSubmitted(result, values);
      else {
        message.success(schema.successMessage ?? '提交成功');
        if (schema.successRedirect) navigate(schema.successRedirect);
        else form.resetFields();
      }
    } catch (e) {
      const err = e instanceof ApiError ? e : new ApiError('提交失败，请稍后重试', 0, -1);
      setFormError(err.message);
      setServerErrors(err.fieldErrors);
      const known = new Set(schema.fields.map((f) => f.name));
      form.setFields(err.fieldErrors.filter((fe) => known.has(String(namePath(fe.field)[0]))).map((fe) => ({ name: namePath(fe.field), errors: [fe.message] })));
    } finally {
      busy.current = false;
      setSubmitting(false);
    }
  };

  // A gateway error sits on its field until the user edits that field (then the field's own rule decides).
  const onValuesChange = (changed: Record<string, unknown>) => {
    const left = serverErrors.filter((e) => !(String(namePath(e.field)[0]) in changed));
    if (left.length === serverErrors.length) return;
    setServerErrors(left);
    if (left.length === 0) setFormError(undefined);
  };

  const input = (f: FormField) => {
    const placeholder = f.placeholder;
    switch (f.type) {
      case 'password':
        return <Input.Password placeholder={placeholder} maxLength={f.maxLength} />;
      case 'textarea':
        return <Input.TextArea placeholder={placeholder} rows={4} showCount={!!f.maxLength} maxLength={f.maxLength} />;
      case 'smsCode':
        return <SmsCodeInput placeholder={placeholder} phone={() => String(form.getFieldValue('phone') ?? '')} />;
      default:
        return <Input placeholder={placeholder} />;
    }
  };

  return (
    <Form form={form} layout="vertical" initialValues={initialValues} onFinish={submit} onValuesChange={onValuesChange}>
      {schema.description && <Alert type="info" showIcon message={schema.description} style={{ marginBottom: 16 }} />}
      {schema.fields.map((f) => {
        const check = fieldValidator(f);
        return (
          <Form.Item
            key={f.name}
            name={f.name}
            label={f.title}
            extra={f.description}
            hidden={f.hidden}
            required={f.required}
            rules={[
              {
                validator: async (_rule, value) => {
                  const msg = check(value);
                  if (msg) throw new Error(msg);
                },
              },
            ]}
          >
            {input(f)}
          </Form.Item>
        );
      })}
      {formError && <FormErrorSummary message={formError} errors={serverErrors} labelOf={labelOf} />}
      <Button type="primary" htmlType="submit" block size="large" loading={submitting}>
        {schema.submit.label ?? '提交'}
      </Button>
      {extra}
    </Form>
  );
}
