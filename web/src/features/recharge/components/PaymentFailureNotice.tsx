/** A failed or cancelled payment, said plainly in the payer's language, with a retry. */
import { Button, Callout } from '@blueprintjs/core';
import { CreditCardIcon, DisableIcon, ErrorIcon, RefreshIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import type { PaymentFailureReason } from '../api/orders';

const ICONS = { declined: <CreditCardIcon />, cancelled: <DisableIcon />, failed: <ErrorIcon /> } as const;

export function PaymentFailureNotice({ reason, onRetry }: { reason: PaymentFailureReason; onRetry?: () => void }) {
  const { t } = useTranslation('recharge', { keyPrefix: 'rechargeFailures' });
  return (
    <Callout
      intent={reason === 'cancelled' ? 'warning' : 'danger'}
      icon={ICONS[reason]}
      title={t(`${reason}.title`)}
      className="jc-pay-error"
      data-testid="payment-failure"
      data-reason={reason}
      role="alert"
    >
      <p>{t(`${reason}.text`)}</p>
      {onRetry && <Button text={t('retry')} icon={<RefreshIcon />} intent="primary" onClick={onRetry} data-testid="payment-failure-retry" />}
    </Callout>
  );
}
