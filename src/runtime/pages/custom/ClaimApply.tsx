import { CUSTOM_PAGE_LISTS } from './pageData';
import { TableWithDetail } from './TableWithDetail';
import { ClaimAttachments } from './claim/ClaimAttachments';

/** 理赔申请: the claims list; a claim's detail, with its photos and documents, opens in a drawer (?id=). */
export function ClaimApply() {
  return <TableWithDetail table={CUSTOM_PAGE_LISTS.ClaimApply} detail="claim" title="理赔申请详情" extra={(id) => <ClaimAttachments claimId={id} />} />;
}
