import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { getForm } from '../../../schema/registry';
import { LazyFormPage as FormPage } from '../lazy';
import { useLoad } from './useLoad';
import { LoadState } from './LoadState';
import { DetailNotFound } from '../DetailNotFound';

/**
 * A form page whose optional route param :id names a record to start from: without an id the empty
 * form, with one the record is loaded (GET `${api}/:id`) and turned into the form's initial values.
 */
export function PrefilledForm<T>({
  form,
  api,
  what,
  toValues,
}: {
  form: string;
  api: string;
  what: string;
  toValues: (record: T) => Record<string, unknown>;
}) {
  const { id } = useParams();
  const schema = getForm(form);
  const load = useLoad<T>(id ? `${api}/${encodeURIComponent(id)}` : null, what);
  const initialValues = useMemo(() => (load.data ? toValues(load.data) : undefined), [load.data]); // eslint-disable-line react-hooks/exhaustive-deps
  if (!id) return <FormPage schema={schema} />;
  if (load.notFound) return <DetailNotFound message={load.notFound} />;
  return <LoadState load={load}>{() => <FormPage schema={schema} initialValues={initialValues} />}</LoadState>;
}
