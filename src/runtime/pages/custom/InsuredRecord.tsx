import { TableWithDetail } from './TableWithDetail';

/** 投保记录: the records list; a record's detail opens in a drawer (?id=). */
export function InsuredRecord() {
  return <TableWithDetail table="insure-records" detail="insure-record" title="投保记录详情" />;
}
