import { Button, Callout, Card, H4, Spinner, Tag } from '@blueprintjs/core';
import { EndorsedIcon, InfoSignIcon } from '@blueprintjs/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SignatureList } from '@/components/Signatures';
import { useSigning } from '@/components/SignatureDialog';
import {
  FDA_READ, fdaKeys, fdaOnFor, signRecord, useEndorsements, useFdaStatus, useRecordSignatures, type FdaSubject, type SignatureRow,
} from '@/lib/api/fda';
import { ApiError } from '@/lib/http';
import { notify } from '@/lib/notify';
import { usePermissions } from '@/lib/permissions';
import { useSession } from '@/lib/session';
import type { WaybillDetail } from '../api/waybills';

/** The server's refusal of a signer who neither may change the record nor is named by an endorsement of its owner. */
export const MAY_NOT_SIGN = 2329;

export type ApprovalStatus = 'approved' | 'changed' | 'pending';

/**
 * Where the waybill stands: approved while an approval applies to it as it is now, changed once
 * every approval was of an earlier version, else pending.
 */
export function approvalStatus(signatures: readonly SignatureRow[]): ApprovalStatus {
  const approvals = signatures.filter((s) => s.meaning === 'approved');
  if (approvals.some((s) => s.valid)) return 'approved';
  return approvals.length > 0 ? 'changed' : 'pending';
}

/**
 * Whether FDA mode is on for the waybill, as the caller's switches tell: an organization's waybill is
 * the organization's record, a waybill the caller may change without one is the caller's own. Null
 * when they do not say (a sharee's view of another's waybill): nothing is offered then.
 */
export function waybillFdaOn(subjects: readonly FdaSubject[] | undefined, waybill: Pick<WaybillDetail, 'organizationId' | 'changeable'>,
  me: number | undefined): boolean | null {
  const organizationId = waybill.organizationId ?? null;
  if (organizationId === null && (!waybill.changeable || me === undefined)) return null;
  return fdaOnFor(subjects, { organizationId, ownerId: me ?? 0 });
}

const STATUS_INTENT: Record<ApprovalStatus, 'success' | 'danger' | 'none'> = { approved: 'success', changed: 'danger', pending: 'none' };

/**
 * A waybill's approval (21 CFR Part 11): where FDA mode is on for its owner, whoever may sign it
 * approves it with an electronic signature bound to the waybill as it is now; its signatures show
 * their manifestation (printed name, date and time with the zone, meaning) and whether they still
 * apply. A member who may not change the waybill is offered the approval only when an endorsement of
 * the organization signs waybills; the server decides, and its refusal says why.
 */
export function WaybillApproval({ waybill }: { waybill: WaybillDetail }) {
  const { t } = useTranslation('waybills');
  const queryClient = useQueryClient();
  const readable = usePermissions().has(FDA_READ);
  const account = useSession().info?.baseAccount;
  const fdaOn = waybillFdaOn(useFdaStatus(readable).data?.subjects, waybill, account?.id);
  const recordId = String(waybill.id);
  const signatures = useRecordSignatures('waybill', recordId, readable);
  // A member who may not change it signs only under an endorsement of the organization for waybills.
  const organizationId = waybill.organizationId ?? undefined;
  const endorsements = useEndorsements({ organizationId }, readable && fdaOn === true && !waybill.changeable && organizationId !== undefined);
  const endorsed = (endorsements.data?.data ?? []).some((e) => e.recordTypes.includes('waybill'));
  const signing = useSigning();
  const [refused, setRefused] = useState(false);

  if (!readable) return null;
  const rows = signatures.data ?? [];
  // Nothing to show where FDA mode is off and nothing was signed while it was on.
  if (fdaOn !== true && rows.length === 0) return null;
  const status = approvalStatus(rows);
  const approvedByMe = rows.some((s) => s.valid && s.meaning === 'approved' && s.signerLogin === account?.userName);
  const mayTry = fdaOn === true && !refused && !approvedByMe && (waybill.changeable || endorsed);
  const name = waybill.orderNum ?? `#${waybill.id}`;

  const approve = async () => {
    const signed = await signing.sign(
      { title: t('approval.dialogTitle'), label: name, intro: t('approval.intro'), recordType: 'waybill', meanings: ['approved'],
        submitText: t('approval.approve') },
      async (signature) => {
        try {
          return await signRecord('waybill', recordId, signature);
        } catch (error) {
          if (error instanceof ApiError && error.code === MAY_NOT_SIGN) setRefused(true);
          throw error; // the dialog shows why
        }
      },
    );
    if (signed === null) return; // cancelled
    notify.success(t('approval.done', { name }));
    await queryClient.invalidateQueries({ queryKey: fdaKeys.record('waybill', recordId) });
  };

  return (
    <Card elevation={0} className="jc-wb-approval" data-testid="waybill-approval" data-status={status}>
      {signing.dialog}
      <div className="jc-wb-approval-head">
        <H4>{t('approval.section')}</H4>
        <Tag round minimal={status === 'pending'} intent={STATUS_INTENT[status]} data-testid="waybill-approval-status">
          {t(`approval.status.${status}`)}
        </Tag>
        <div className="jc-wb-spacer" />
        {mayTry && (
          <Button intent="primary" icon={<EndorsedIcon />} text={t('approval.approve')} onClick={() => void approve()}
            data-testid="waybill-approve" />
        )}
      </div>
      {status === 'changed' && <p className="jc-wb-help">{t('approval.changedHint')}</p>}
      {signatures.data === undefined ? (signatures.isError ? <p>{t('approval.loadFailed')}</p> : <Spinner size={20} />)
        : rows.length > 0 ? <SignatureList signatures={rows} />
          : <p className="jc-wb-help" data-testid="waybill-unsigned">{t('approval.unsigned')}</p>}
      {refused && (
        <Callout intent="warning" icon={<InfoSignIcon />} compact data-testid="waybill-approval-refused">{t('approval.mayNotSign')}</Callout>
      )}
    </Card>
  );
}
