import { CUSTOM_PAGE_LISTS } from './pageData';
import { TableWithDetail } from './TableWithDetail';

/** 投保记录: the records list; a record's detail opens in a drawer (?id=). */
export function InsuredRecord() {
  return <TableWithDetail table={CUSTOM_PAGE_LISTS.InsuredRecord} detail="insure-record" title="投保记录详情" />;
}
