import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Alert, Button, Card, Input, Select, Space, Upload } from 'antd';
import { message } from '../feedback';
import { UploadOutlined } from '@ant-design/icons';
import { createForm, onFieldInputValueChange, onFormSubmitStart, type Form as FormilyForm } from '@formily/core';
import { createSchemaField, useForm, observer as formilyObserver } from '@formily/react';
import {
  ArrayTable,
  DatePicker,
  Form,
  FormButtonGroup,
  FormItem,
  Input as FInput,
  NumberPicker,
  Password,
  Select as FSelect,
  Submit,
  Switch,
} from '@formily/antd-v5';
import type { FormField, FormSchema } from '../../schema/types';
import { describeFieldPath } from '../../shared/entity/messages';
import { api, ApiError, newIdempotencyKey } from '../../services/request';
import { toFormilyPath, toFormilySchema } from '../formSchema';
import { csvToRows, PHONE_RE, type RosterColumn } from '../validators';

/** "获取验证码" next to the code input: sends the SMS for the form's phone, then counts down. */
const SmsCodeInput = formilyObserver(function SmsCodeInput(props: { value?: string; onChange?: (v: string) => void; placeholder?: string }) {
  const form = useForm();
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);
  useEffect(() => {
    if (left <= 0) return;
    const t = setTimeout(() => setLeft(left - 1), 1000);
    return () => clearTimeout(t);
  }, [left]);
  const send = async () => {
    const phone = String(form.values.phone ?? '');
    if (!PHONE_RE.test(phone)) {
      message.error('请先输入正确的 11 位手机号');
      return;
    }
    setSending(true);
    try {
      await api.post('/api/auth/sms-code', { phone });
      message.success('验证码已发送');
      setLeft(60);
    } catch (e) {
      message.error(e instanceof ApiError ? e.message : '验证码发送失败');
    } finally {
      setSending(false);
    }
  };
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input value={props.value} onChange={(e) => props.onChange?.(e.target.value)} placeholder={props.placeholder ?? '短信验证码'} maxLength={6} />
      <Button onClick={send} disabled={left > 0} loading={sending}>
        {left > 0 ? `${left} 秒后重发` : '获取验证码'}
      </Button>
    </Space.Compact>
  );
});

/** Imports a CSV/TSV roster file into the surrounding ArrayTable (rows are appended). */
function RowsImport(props: { target: string; columns: RosterColumn[] }) {
  const form = useForm();
  const [error, setError] = useState<string>();
  return (
    <Space direction="vertical" style={{ marginBottom: 8 }}>
      <Upload
        accept=".csv,.txt,.tsv"
        showUploadList={false}
        beforeUpload={async (file) => {
          const text = await file.text();
          const { rows, error: err } = csvToRows(text, props.columns);
          setError(err);
          if (!err) {
            const current = form.getValuesIn(props.target);
            form.setValuesIn(props.target, [...(Array.isArray(current) ? current : []), ...rows]);
            message.success(`已导入 ${rows.length} 人`);
          }
          return false;
        }}
      >
        <Button icon={<UploadOutlined />}>导入名单（CSV）</Button>
      </Upload>
      <span style={{ color: 'rgba(0, 0, 0, 0.65)' }}>表头：{props.columns.map((c) => c.title).join('，')}</span>
      {error && <Alert type="error" showIcon message={error} />}
    </Space>
  );
}

/** Select whose options come from a list endpoint (rows' `value`/`label`, or id/name-like fields). */
function RemoteSelect(props: { optionsApi: string; value?: unknown; onChange?: (v: unknown) => void; mode?: 'multiple'; 'aria-label'?: string }) {
  const [options, setOptions] = useState<Array<{ label: string; value: string }>>([]);
  useEffect(() => {
    api
      .get<{ list: Record<string, unknown>[] } | Record<string, unknown>[]>(props.optionsApi, { current: 1, pageSize: 100 })
      .then((r) => {
        const list = Array.isArray(r) ? r : r.list;
        setOptions(
          list.map((x) => {
            const value = String(x.value ?? x.orderNo ?? x.invoiceNo ?? x.id);
            return { value, label: String(x.label ?? x.name ?? value) };
          }),
        );
      })
      .catch(() => setOptions([]));
  }, [props.optionsApi]);
  return <Select aria-label={props['aria-label']} mode={props.mode} options={options} value={props.value} onChange={props.onChange} showSearch allowClear style={{ width: '100%' }} />;
}

const SchemaField = createSchemaField({
  components: { FormItem, Input: FInput, Password, NumberPicker, DatePicker, Select: FSelect, Switch, ArrayTable, SmsCodeInput, RowsImport, RemoteSelect },
});

/** Checks a confirmation input (confirmOf) against the field it repeats; returns the mismatching input. */
function confirmMismatch(schema: FormSchema, values: Record<string, unknown>): string | undefined {
  const confirm = schema.fields.find((f) => f.confirmOf);
  if (confirm && values[confirm.confirmOf!] !== values[confirm.name]) return confirm.name;
  return undefined;
}

/** Label of a gateway field path: 'rows[0].name' → the roster column title, 'phone' → 手机号. */
function labelLookup(fields: FormField[]) {
  return (path: string): string | undefined => {
    const m = /^(\w+)(?:\[\d+\]\.(\w+))?$/.exec(path);
    if (!m) return undefined;
    const f = fields.find((x) => x.name === m[1]);
    return m[2] ? f?.columns?.find((c) => c.name === m[2])?.title : f?.title;
  };
}

type ServerError = { field: string; message: string };
type FieldLike = { address: { toString(): string }; selfErrors?: string[] };

export interface FormPageProps {
  schema: FormSchema;
  /** Replaces the default "message + redirect" after a successful submit (e.g. sign-in). */
  onSubmitted?: (result: unknown, values: Record<string, unknown>) => void;
  /** Renders without the Card frame (sign-in pages). */
  bare?: boolean;
  extra?: React.ReactNode;
  /** Values the form starts with (e.g. the order or invoice a route param names). */
  initialValues?: Record<string, unknown>;
}

/** A page form rendered from a form schema with Formily; server field errors land on their fields. */
export function FormPage({ schema, onSubmitted, bare, extra, initialValues }: FormPageProps) {
  const navigate = useNavigate();
  const [serverErrors, setServerErrors] = useState<ServerError[]>([]);
  const [formError, setFormError] = useState<string>();
  const submitting = useRef(false);
  const submitKey = useRef<{ body: string; key: string }>();
  const pending = useRef<ServerError[]>([]);
  const form = useMemo<FormilyForm>(
    () =>
      createForm({
        initialValues,
        effects() {
          // A gateway error sits on its field until the user edits that field.
          onFieldInputValueChange('*', (field) => {
            const path = (field as unknown as FieldLike).address.toString();
            if (!pending.current.some((e) => toFormilyPath(e.field) === path)) return;
            (field as unknown as FieldLike).selfErrors = [];
            pending.current = pending.current.filter((e) => toFormilyPath(e.field) !== path);
            setServerErrors(pending.current);
            if (pending.current.length === 0) setFormError(undefined);
          });
          // Submitting again re-checks everything locally; stale gateway errors must not block it.
          onFormSubmitStart((f) => {
            for (const e of pending.current) {
              f.setFieldState(toFormilyPath(e.field), (st) => {
                (st as { selfErrors?: string[] }).selfErrors = [];
              });
            }
            pending.current = [];
          });
        },
      }),
    [schema, initialValues],
  );
  const formilySchema = useMemo(() => toFormilySchema(schema), [schema]);
  const labelOf = useMemo(() => labelLookup(schema.fields), [schema]);

  const submit = async (values: Record<string, unknown>) => {
    if (submitting.current) return;
    setServerErrors([]);
    setFormError(undefined);
    const mismatch = confirmMismatch(schema, values);
    if (mismatch) {
      form.setFieldState(mismatch, (st) => {
        (st as { selfErrors?: string[] }).selfErrors = ['两次输入的密码不一致'];
      });
      return;
    }
    const confirmOnly = new Set(schema.fields.filter((f) => f.confirmOf).map((f) => f.name));
    const payload = Object.fromEntries(Object.entries(values).filter(([k]) => !confirmOnly.has(k)));
    submitting.current = true;
    // One Idempotency-Key per submit: sending the same content again (e.g. after a network error) reuses
    // it, so the gateway answers with the first result instead of charging twice.
    const body = JSON.stringify(payload);
    if (submitKey.current?.body !== body) submitKey.current = { body, key: newIdempotencyKey() };
    const opts = { idempotencyKey: submitKey.current.key };
    try {
      const result = await (schema.submit.method === 'PUT' ? api.put(schema.submit.api, payload, opts) : api.post(schema.submit.api, payload, opts));
      submitKey.current = undefined;
      if (onSubmitted) onSubmitted(result, values);
      else {
        message.success(schema.successMessage ?? '提交成功');
        if (schema.successRedirect) navigate(schema.successRedirect);
        else form.reset();
      }
    } catch (e) {
      const err = e instanceof ApiError ? e : new ApiError('提交失败，请稍后重试', 0, -1);
      setFormError(err.message);
      pending.current = err.fieldErrors;
      setServerErrors(err.fieldErrors);
      for (const fe of err.fieldErrors) {
        form.setFieldState(toFormilyPath(fe.field), (st) => {
          (st as { selfErrors?: string[] }).selfErrors = [fe.message];
        });
      }
    } finally {
      submitting.current = false;
    }
  };

  const body = (
    <Form form={form} layout="vertical" onAutoSubmit={submit} onAutoSubmitFailed={() => { /* field errors are shown on the fields */ }}>
      {schema.description && <Alert type="info" showIcon message={schema.description} style={{ marginBottom: 16 }} />}
      <SchemaField schema={formilySchema} />
      {formError && (
        <Alert
          type="error"
          showIcon
          role="alert"
          message={formError}
          description={
            serverErrors.length > 0 ? (
              <ul style={{ margin: 0, paddingLeft: 18 }}>
                {serverErrors.slice(0, 20).map((x) => (
                  <li key={`${x.field}:${x.message}`}>{`${describeFieldPath(x.field, labelOf)}：${x.message}`}</li>
                ))}
                {serverErrors.length > 20 && <li>……共 {serverErrors.length} 处错误</li>}
              </ul>
            ) : undefined
          }
          style={{ marginBottom: 16 }}
        />
      )}
      <FormButtonGroup>
        <Submit block={bare} size={bare ? 'large' : 'middle'}>
          {schema.submit.label ?? '提交'}
        </Submit>
      </FormButtonGroup>
      {extra}
    </Form>
  );
  return bare ? body : <Card title={schema.title}>{body}</Card>;
}
