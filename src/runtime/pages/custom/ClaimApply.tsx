import { TableWithDetail } from './TableWithDetail';

/** 理赔申请: the claims list; a claim's detail opens in a drawer (?id=). */
export function ClaimApply() {
  return <TableWithDetail table="claims" detail="claim" title="理赔详情" />;
}
