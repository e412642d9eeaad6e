import { getForm, getTable } from '../../../schema/registry';
import { LazyFormPage as FormPage, LazyTablePage as TablePage } from '../lazy';
import { UrlTabs } from './SchemaTabs';

/** 参保人员管理 (attendance insurance): the insured persons, and the attendance insurance form (?tab=attendance). */
export function InsurePersonManage() {
  return (
    <UrlTabs
      items={[
        { key: 'persons', label: '参保人员', children: <TablePage schema={getTable('insured-persons')} /> },
        { key: 'attendance', label: '考勤投保', children: <FormPage schema={getForm('insure-attendance')} /> },
      ]}
    />
  );
}
