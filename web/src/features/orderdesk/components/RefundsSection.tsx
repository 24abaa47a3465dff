import { Button, Callout, H5, InputGroup, Tag, type Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '@/lib/notify';
import { useSession } from '@/lib/session';
import { ORDER_LIMITS, REFUND_STATUS, type Refund } from '../api/orders';
import { useDecideRefund } from '../api/refunds';
import { TakeBackList } from './TakeBackList';
import { useDeskFormat } from './useDeskFormat';

const STATUS_INTENT: Readonly<Record<number, Intent>> = { 1: 'warning', 2: 'primary', 3: 'success', 4: 'danger', 5: 'none' };

/** `atProvider`: a processing refund the provider accepted (its reference is known) and will tell the outcome of. */
export function RefundStatusTag({ status, atProvider = false }: { status: number; atProvider?: boolean }) {
  const { t } = useTranslation('orderdesk');
  const waiting = atProvider && status === REFUND_STATUS.processing;
  return (
    <Tag round minimal intent={STATUS_INTENT[status] ?? 'none'} data-testid="od-refund-status" data-status={status}
      data-at-provider={waiting || undefined}>
      {t(waiting ? 'refundStatus.atProvider' : `refundStatus.${status}`)}
    </Tag>
  );
}

interface RefundsSectionProps {
  refunds: readonly Refund[];
  /** The operator may refund and decide refunds (order.recharge:refund). */
  canDecide: boolean;
}

/** Every refund of the order, oldest first: who asked, why, who decided, what the provider answered, what it took back. */
export function RefundsSection({ refunds, canDecide }: RefundsSectionProps) {
  const { t } = useTranslation('orderdesk');
  if (refunds.length === 0) return null;
  return (
    <section>
      <H5>{t('refunds.title')}</H5>
      <ol className="jc-od-refunds" data-testid="od-refunds">
        {refunds.map((refund) => <RefundItem key={refund.refundId} refund={refund} canDecide={canDecide} />)}
      </ol>
    </section>
  );
}

function RefundItem({ refund, canDecide }: { refund: Refund; canDecide: boolean }) {
  const { t } = useTranslation('orderdesk');
  const { money, when } = useDeskFormat();
  const by = (name: string | null) => (name ? t('detail.by', { name }) : t('refunds.byUnknown'));
  return (
    <li className="jc-od-refund" data-testid="od-refund" data-refund-code={refund.refundCode}>
      <div className="jc-od-refund-top">
        <strong className="jc-od-refund-amount">{money(refund.amount, refund.currency)}</strong>
        <RefundStatusTag status={refund.status} atProvider={refund.providerReference !== null} />
        <span className="jc-od-code jc-od-sub">{refund.refundCode}</span>
      </div>
      <div className="jc-od-sub">{t('refunds.asked')} · {when(refund.requestedAt)} · {by(refund.requestedBy)}</div>
      <Callout compact className="jc-od-reason">{refund.reason}</Callout>
      {refund.decidedAt && (
        <div className="jc-od-sub" data-testid="od-refund-decided">
          {t(refund.status === REFUND_STATUS.rejected ? 'refunds.rejected' : 'refunds.approved')} · {when(refund.decidedAt)} · {by(refund.decidedBy)}
          {refund.decisionNote && <Callout compact className="jc-od-reason">{refund.decisionNote}</Callout>}
        </div>
      )}
      {refund.providerReference && (
        <div className="jc-od-sub">{t('refunds.reference')}: <code>{refund.providerReference}</code></div>
      )}
      {refund.error && <Callout compact intent="danger" className="jc-od-reason">{t('refunds.error', { error: refund.error })}</Callout>}
      {refund.takeBacks.length > 0 && <TakeBackList takeBacks={refund.takeBacks} />}
      {refund.status === REFUND_STATUS.awaitingApproval && canDecide && <Decision refund={refund} />}
    </li>
  );
}

/** Approve or reject, with an optional note; approving is not offered to the operator who asked (the server refuses it too). */
function Decision({ refund }: { refund: Refund }) {
  const { t } = useTranslation('orderdesk');
  const me = useSession().info?.baseAccount.userName;
  const decide = useDecideRefund();
  const [note, setNote] = useState('');
  const [deciding, setDeciding] = useState<boolean | null>(null);
  const send = (approve: boolean) => {
    setDeciding(approve);
    decide.mutate({ refundId: refund.refundId, approve, note: note.trim() }, {
      onSuccess: () => notify.success(t(approve ? 'refunds.approvedDone' : 'refunds.rejectedDone', { code: refund.refundCode })),
    });
  };
  const mine = me !== undefined && me === refund.requestedBy;
  return (
    <div className="jc-od-decision" data-testid="od-decision">
      <InputGroup value={note} onChange={(e) => setNote(e.currentTarget.value)} maxLength={ORDER_LIMITS.reason}
        placeholder={t('refunds.note')} aria-label={t('refunds.note')} data-testid="od-decision-note" />
      <div className="jc-od-decision-actions">
        {mine ? (
          <span className="jc-od-sub" data-testid="od-decision-mine">{t('refunds.notYours')}</span>
        ) : (
          <Button intent="success" text={t('refunds.approve')} disabled={decide.isPending} loading={decide.isPending && deciding === true}
            onClick={() => send(true)} data-testid="od-approve" />
        )}
        <Button intent="danger" variant="outlined" text={t('refunds.reject')} disabled={decide.isPending}
          loading={decide.isPending && deciding === false} onClick={() => send(false)} data-testid="od-reject" />
      </div>
    </div>
  );
}
