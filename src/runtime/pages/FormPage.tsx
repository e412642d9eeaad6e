import { Suspense, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Alert, Card } from 'antd';
import { message } from '../feedback';
import { createForm, onFieldInputValueChange, onFormSubmitStart, type Form as FormilyForm } from '@formily/core';
import { createSchemaField, useForm, observer as formilyObserver } from '@formily/react';
import { Form, FormButtonGroup, FormItem, Input as FInput, Password, Select as FSelect, Submit, Switch } from '@formily/antd-v5';
import type { FormSchema } from '../../schema/types';
import { ApiError } from '../../services/request';
import { toFormilyPath, toFormilySchema } from '../formSchema';
import { CONFIRM_MISMATCH, confirmMismatch, labelLookup, payloadOf, sameAsOther, sendForm, type ServerError } from './formSubmit';
import { FormErrorSummary } from './FormErrorSummary';
import { ConfirmCost } from './ConfirmCost';
import { SmsCodeInput as SmsInput, type SmsCodeInputProps } from './SmsCodeInput';
import { lazyWithRetry } from '../errors';
import { Loading } from '../layouts/Loading';
import { needsHeavyInputs } from './formInputs';
import { FileUpload } from '../upload/FileUpload';
import { RowsImport } from '../upload/RowsImport';
import { RemoteSelect } from './RemoteSelect';

/** The shared SMS code input, reading the phone from the Formily form. */
const SmsCodeInput = formilyObserver(function FormilySmsCodeInput(props: Omit<SmsCodeInputProps, 'phone'>) {
  const form = useForm();
  return <SmsInput {...props} phone={() => String(form.values.phone ?? '')} />;
});

const LIGHT_INPUTS = { FormItem, Input: FInput, Password, Select: FSelect, Switch, SmsCodeInput, RowsImport, RemoteSelect, FileUpload };
const SchemaField = createSchemaField({ components: LIGHT_INPUTS });
/** The same plus the roster table and date/number pickers, loaded in their own chunk by forms that need them. */
const FullSchemaField = lazyWithRetry(() =>
  import('./formInputsHeavy').then((m) => ({ default: createSchemaField({ components: { ...LIGHT_INPUTS, ...m.HEAVY_INPUTS } }) })),
);

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
  /**
   * A form that is not sent to the gateway (the schema studio's editors, previews): the checked values
   * go here instead; an ApiError it throws shows like a gateway refusal (message, field errors).
   */
  onSubmit?: (values: Record<string, unknown>) => void | Promise<void>;
}

/** A page form rendered from a form schema with Formily; server field errors land on their fields. */
export function FormPage({ schema, onSubmitted, bare, extra, initialValues, onSubmit }: FormPageProps) {
  const navigate = useNavigate();
  const [serverErrors, setServerErrors] = useState<ServerError[]>([]);
  const [formError, setFormError] = useState<string>();
  const submitting = useRef(false);
  const submitKey = useRef<{ body: string; key: string }>();
  const pending = useRef<ServerError[]>([]);
  /** Fields holding an error between two fields (confirmation mismatch, same as the current password). */
  const relational = useRef<string[]>([]);
  const [costFor, setCostFor] = useState<{ payload: Record<string, unknown>; values: Record<string, unknown> }>();
  const form = useMemo<FormilyForm>(
    () =>
      createForm({
        initialValues,
        effects() {
          const clearRelational = (f: FormilyForm) => {
            for (const name of relational.current) {
              f.setFieldState(name, (st) => {
                (st as { selfErrors?: string[] }).selfErrors = [];
              });
            }
            relational.current = [];
          };
          // A gateway error sits on its field until the user edits that field.
          onFieldInputValueChange('*', (field, f) => {
            // An error between two fields goes as soon as either changes (the next submit checks again).
            if (relational.current.length) clearRelational(f as unknown as FormilyForm);
            const path = (field as unknown as FieldLike).address.toString();
            if (!pending.current.some((e) => toFormilyPath(e.field) === path)) return;
            (field as unknown as FieldLike).selfErrors = [];
            pending.current = pending.current.filter((e) => toFormilyPath(e.field) !== path);
            setServerErrors(pending.current);
            if (pending.current.length === 0) setFormError(undefined);
          });
          // Submitting again re-checks everything locally; stale gateway errors must not block it.
          onFormSubmitStart((f) => {
            clearRelational(f as unknown as FormilyForm);
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
    const same = mismatch ? undefined : sameAsOther(schema, values);
    const relationalError = mismatch ? { field: mismatch, message: CONFIRM_MISMATCH } : same;
    if (relationalError) {
      relational.current = [relationalError.field];
      form.setFieldState(relationalError.field, (st) => {
        (st as { selfErrors?: string[] }).selfErrors = [relationalError.message];
      });
      return;
    }
    const payload = payloadOf(schema, values);
    // A submission that costs money shows its cost first and is sent only once the user confirms it.
    if (schema.quote) setCostFor({ payload, values });
    else await send(payload, values);
  };

  const send = async (payload: Record<string, unknown>, values: Record<string, unknown>) => {
    submitting.current = true;
    try {
      if (onSubmit) {
        await onSubmit(values);
        return;
      }
      const result = await sendForm(schema, payload, submitKey);
      if (onSubmitted) onSubmitted(result, values);
      else {
        message.success(schema.successMessage ?? '提交成功');
        if (schema.successRedirect) navigate(schema.successRedirect);
        else form.reset();
      }
    } catch (e) {
      showError(e);
    } finally {
      submitting.current = false;
    }
  };

  /** A gateway refusal: the message above the button, field errors on their fields. */
  const showError = (e: unknown) => {
    const err = e instanceof ApiError ? e : new ApiError('提交失败，请稍后重试', 0, -1);
    setFormError(err.message);
    pending.current = err.fieldErrors;
    setServerErrors(err.fieldErrors);
    for (const fe of err.fieldErrors) {
      form.setFieldState(toFormilyPath(fe.field), (st) => {
        (st as { selfErrors?: string[] }).selfErrors = [fe.message];
      });
    }
  };

  const body = (
    <Form form={form} layout="vertical" onAutoSubmit={submit} onAutoSubmitFailed={() => { /* field errors are shown on the fields */ }}>
      {schema.description && <Alert type="info" showIcon message={schema.description} style={{ marginBottom: 16 }} />}
      {needsHeavyInputs(schema.fields) ? (
        <Suspense fallback={<Loading />}>
          <FullSchemaField schema={formilySchema} />
        </Suspense>
      ) : (
        <SchemaField schema={formilySchema} />
      )}
      {formError && <FormErrorSummary message={formError} errors={serverErrors} labelOf={labelOf} />}
      <FormButtonGroup>
        <Submit block={bare} size={bare ? 'large' : 'middle'}>
          {schema.submit.label ?? '提交'}
        </Submit>
      </FormButtonGroup>
      {extra}
      {costFor && schema.quote && (
        <ConfirmCost
          quote={schema.quote}
          payload={costFor.payload}
          okText={schema.submit.label ?? '提交'}
          onConfirm={() => {
            setCostFor(undefined);
            void send(costFor.payload, costFor.values);
          }}
          onCancel={() => setCostFor(undefined)}
          onError={(e) => {
            setCostFor(undefined);
            showError(e);
          }}
        />
      )}
    </Form>
  );
  return bare ? body : <Card title={schema.title}>{body}</Card>;
}
