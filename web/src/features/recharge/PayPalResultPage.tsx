/**
 * Where PayPal sends the payer back (no login; the payer's window or phone): the console's
 * /api/payment/paypal/return captures the order and redirects to `callback?orderId=&payStatus=`
 * (`error=1` when the capture failed), and /paypal/cancel redirects to `cancel`. The page says
 * what happened; the console's paying drawer, which polls the order, updates by itself.
 */
import { Button, Card, Icon, type Intent } from '@blueprintjs/core';
import { DisableIcon, ErrorIcon, TickCircleIcon, TimeIcon } from '@blueprintjs/icons';
import type { JSX } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PAY_STATUS } from './api/orders';
import './paypalResult.css';

type Outcome = 'paid' | 'pending' | 'failed' | 'cancelled';

const LOOK: Record<Outcome, { icon: JSX.Element; intent: Intent }> = {
  paid: { icon: <TickCircleIcon />, intent: 'success' },
  pending: { icon: <TimeIcon />, intent: 'primary' },
  failed: { icon: <ErrorIcon />, intent: 'danger' },
  cancelled: { icon: <DisableIcon />, intent: 'warning' },
};

/** What the callback's query says; anything unexpected reads as not completed. */
export function callbackOutcome(params: URLSearchParams): Outcome {
  if (params.get('error')) return 'failed';
  const status = Number(params.get('payStatus'));
  if (status === PAY_STATUS.paid) return 'paid';
  if (status === PAY_STATUS.unpaid) return 'pending';
  return 'failed';
}

export function PayPalResult({ outcome }: { outcome: Outcome }) {
  const { t } = useTranslation('recharge', { keyPrefix: 'recharge.paypal' });
  const { icon, intent } = LOOK[outcome];
  return (
    <Card className="jc-paypal-result" data-testid="paypal-result" data-outcome={outcome}>
      <Icon icon={icon} intent={intent} size={48} />
      <h1>{t(`${outcome}.title`)}</h1>
      <p>{t(`${outcome}.text`)}</p>
      {/* The window PayPal ran in was opened by the console: closing it returns the payer there. */}
      <Button intent="primary" size="large" text={t('close')} onClick={() => window.close()} />
      <a href="/" className="jc-paypal-home">
        {t('home')}
      </a>
    </Card>
  );
}

export function PayPalCallbackPage() {
  const [params] = useSearchParams();
  return <PayPalResult outcome={callbackOutcome(params)} />;
}

export function PayPalCancelPage() {
  return <PayPalResult outcome="cancelled" />;
}
