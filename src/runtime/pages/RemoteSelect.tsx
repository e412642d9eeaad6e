import { createContext, useContext, useEffect, useState } from 'react';
import { Select } from 'antd';
import { api } from '../../services/request';

type Row = Record<string, unknown>;
type Option = { label: string; value: string };

/**
 * Rows a page has already read from an optionsApi URL, keyed by that URL: a RemoteSelect for it shows
 * them instead of asking again (申请开票 reads the invoiceable orders to say when there are none).
 */
export const PreloadedOptions = createContext<Readonly<Record<string, Row[] | undefined>>>({});

const toOptions = (list: Row[]): Option[] =>
  list.map((x) => {
    const value = String(x.value ?? x.orderNo ?? x.invoiceNo ?? x.id);
    return { value, label: String(x.label ?? x.name ?? value) };
  });

/** Select whose options come from a list endpoint (rows' `value`/`label`, or id/name-like fields). */
export function RemoteSelect(props: { optionsApi: string; value?: unknown; onChange?: (v: unknown) => void; mode?: 'multiple'; 'aria-label'?: string }) {
  const preloaded = useContext(PreloadedOptions)[props.optionsApi];
  const [fetched, setFetched] = useState<Option[]>([]);
  useEffect(() => {
    if (preloaded) return;
    let live = true;
    api
      .get<{ list: Row[] } | Row[]>(props.optionsApi, { current: 1, pageSize: 100 })
      .then((r) => live && setFetched(toOptions(Array.isArray(r) ? r : r.list)))
      .catch(() => live && setFetched([]));
    return () => {
      live = false;
    };
  }, [props.optionsApi, preloaded]);
  const options = preloaded ? toOptions(preloaded) : fetched;
  return <Select aria-label={props['aria-label']} mode={props.mode} options={options} value={props.value} onChange={props.onChange} showSearch allowClear style={{ width: '100%' }} />;
}
