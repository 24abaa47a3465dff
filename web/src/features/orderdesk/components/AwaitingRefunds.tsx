import { Callout } from '@blueprintjs/core';
import { TimeIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { useAwaitingRefunds } from '../api/refunds';
import { useDeskFormat } from './useDeskFormat';

/**
 * The refunds awaiting a second operator's approval, oldest first, each opening its order (where
 * it is approved or rejected); nothing while there are none. Only for those who may decide them.
 */
export function AwaitingRefunds({ onOpen }: { onOpen: (orderId: number) => void }) {
  const { t } = useTranslation('orderdesk');
  const { money, when } = useDeskFormat();
  const refunds = useAwaitingRefunds(true).data ?? [];
  if (refunds.length === 0) return null;
  return (
    <Callout intent="warning" icon={<TimeIcon />} title={t('awaiting.title', { count: refunds.length })} data-testid="od-awaiting">
      <ul className="jc-od-awaiting">
        {refunds.map((refund) => (
          <li key={refund.refundId}>
            <button type="button" className="jc-od-item" onClick={() => onOpen(refund.orderId)} data-testid="od-awaiting-item">
              <span className="jc-od-item-top">
                <span className="jc-od-code">{refund.orderCode}</span>
                <strong>{money(refund.amount, refund.currency)}</strong>
              </span>
              <span className="jc-od-sub">
                {refund.requestedBy ? t('detail.by', { name: refund.requestedBy }) : t('refunds.byUnknown')} · {when(refund.requestedAt)}
              </span>
              <span className="jc-od-sub">{refund.reason}</span>
            </button>
          </li>
        ))}
      </ul>
    </Callout>
  );
}
