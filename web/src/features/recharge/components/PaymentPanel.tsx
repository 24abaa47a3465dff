/**
 * Where an order is paid, shared by the paying drawer and the SMS/voice drawer: the total, and
 * what the payer needs for the pay type (spec seed 000 sections 2, 4, 8 and 9):
 * - WeChat Pay and Alipay (domestic): the QR code of `payQrCode`;
 * - PayPal: a button opening PayPal's approve page in a new window;
 * - Google Pay and the card payment-request button: the wallet (a provider registered with
 *   `setWalletProvider` yields a payment method id, which confirmPay charges); offline, in the
 *   providers' sandbox, the answer carries the sandbox's payer page as `approveUrl` instead, opened
 *   like PayPal's.
 * The order's state is polled every 3 s while the panel shows it; `onPaid` is called once when it is
 * paid. Unmounting the panel (or a new order) stops the polling of the old one.
 *
 * A failed or cancelled attempt (a card declined on the wallet sheet or its stand-in page, the
 * payer leaving PayPal, the sheet closed) is said in place of the waiting, with a retry: the same
 * payment again when its provider allows it, else a new order (`onRetry`). Each order has one
 * payer window (payerWindow.ts).
 */
import { Button, Callout, Classes, Icon, Spinner } from '@blueprintjs/core';
import {
  CreditCardIcon, ErrorIcon, InfoSignIcon, MobilePhoneIcon, RefreshIcon, ShareIcon, TickCircleIcon,
  TimeIcon, WarningSignIcon,
} from '@blueprintjs/icons';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { editionConfig } from '@/lib/config';
import { ApiError } from '@/lib/http';
import {
  PAY_STATUS,
  paymentFailureSchema,
  useConfirmPay,
  useOrderPolling,
  type OrderPlaced,
  type OrderStatus,
  type PaymentFailureReason,
} from '../api/orders';
import { currencySign, formatAmount, PAY_TYPES, type PayType } from '../values';
import { PaymentFailureNotice } from './PaymentFailureNotice';
import { forgetPayerWindow, openPayerWindow } from './payerWindow';
import '../recharge.css';

/** Asks the wallet (Google Pay, the payment-request sheet) for a payment method; null: the payer gave up. */
export type WalletProvider = (request: {
  payType: typeof PAY_TYPES.googlePay | typeof PAY_TYPES.paymentRequest;
  /** Cents. */
  totalFee: number;
  currency: string;
  clientSecret: string;
}) => Promise<string | null>;

let walletProvider: WalletProvider | null = null;

/** Registers the wallet integration (Stripe.js, once it can load); null removes it. */
export function setWalletProvider(provider: WalletProvider | null): void {
  walletProvider = provider;
}

export interface PaymentPanelProps {
  /** The order to pay; null while there is none (nothing chosen yet, or it is being asked for). */
  order: OrderPlaced | null;
  /** How it is paid: a QR code (1, 2), PayPal's page (20) or a wallet (30, 40); null when no
   *  pay type is offered (there is then no order either). */
  payType: PayType | null;
  /** Cents the order charges: the total shown; null or 0 shows '--'. */
  totalFee: number | null;
  /** An order is being asked for: a spinner where the code goes. */
  loading?: boolean;
  /** Shown where the code goes while there is no order, e.g. "choose an invoice". */
  placeholder?: ReactNode;
  /** Why the last order could not be placed; shown with a retry button when `onRetry` is given. */
  error?: string | null;
  /** Asks for a new order (after a failure, or once the order has closed unpaid). */
  onRetry?: () => void;
  /** Called once when the order is paid (polling has stopped). */
  onPaid: (status: OrderStatus) => void;
}

/** The total and the way to pay one order; see the module comment. */
export function PaymentPanel({ order, payType, totalFee, loading = false, placeholder, error, onRetry, onPaid }: PaymentPanelProps) {
  const { t } = useTranslation('recharge', { keyPrefix: 'recharge.payment' });
  const { edition } = editionConfig();
  const polling = useOrderPolling(order?.orderId);
  const status = order && polling.data?.orderId === order.orderId ? polling.data : undefined;
  const paid = status?.payStatus === PAY_STATUS.paid;
  // Refunded, even in part, means paid earlier: this payment is over, not made now.
  const closed = status?.payStatus === PAY_STATUS.closed || status?.payStatus === PAY_STATUS.refunded
    || status?.payStatus === PAY_STATUS.partiallyRefunded;

  const reported = useRef<number | null>(null);
  const onPaidRef = useRef(onPaid);
  useEffect(() => {
    onPaidRef.current = onPaid;
  });
  useEffect(() => {
    if (status && paid && reported.current !== status.orderId) {
      reported.current = status.orderId;
      onPaidRef.current(status);
    }
  }, [status, paid]);

  // A failure is shown until the payer moves past it (Try again): then only a newer one shows.
  const [seen, setSeen] = useState<{ orderId: number; number: number } | null>(null);
  const [local, setLocal] = useState<{ orderId: number; reason: PaymentFailureReason } | null>(null);
  const latest = status?.lastFailure;
  const seenNumber = order && seen?.orderId === order.orderId ? seen.number : 0;
  const failure =
    order && local?.orderId === order.orderId
      ? { reason: local.reason, newOrder: false }
      : latest && latest.number > seenNumber
        ? latest
        : null;
  const failed = (reason: PaymentFailureReason) => {
    if (!order) return;
    const orderId = order.orderId;
    // what the server recorded of it arrives first, so a retry moves past that too
    void polling.refetch().finally(() => setLocal({ orderId, reason }));
  };
  const retryPayment = () => {
    if (!order) return;
    forgetPayerWindow(order.orderId);
    setLocal(null);
    if (failure?.newOrder) onRetry?.();
    else setSeen({ orderId: order.orderId, number: latest?.number ?? seenNumber });
  };

  const amount = order?.totalFee ?? totalFee;
  return (
    <section className="jc-pay-panel" data-testid="payment-panel" aria-live="polite">
      <div className="jc-pay-total">
        <span className={Classes.TEXT_MUTED}>{t('total')}</span>
        <strong data-testid="payment-total">
          {formatAmount(amount, edition) === '--' ? '--' : `${currencySign(edition)}${formatAmount(amount, edition)}`}
        </strong>
      </div>
      <div className="jc-pay-body">
        {error ? (
          <Callout intent="danger" icon={<ErrorIcon />} className="jc-pay-error" data-testid="payment-error">
            <p>{error}</p>
            {onRetry && <Button text={t('retry')} icon={<RefreshIcon />} onClick={onRetry} />}
          </Callout>
        ) : loading ? (
          <div className="jc-pay-waiting" data-testid="payment-loading">
            <Spinner size={40} />
            <span className={Classes.TEXT_MUTED}>{t('creating')}</span>
          </div>
        ) : !order ? (
          <div className="jc-pay-placeholder" data-testid="payment-placeholder">
            {placeholder ?? t('choose')}
          </div>
        ) : paid ? (
          <div className="jc-pay-waiting" data-testid="payment-paid">
            <Icon icon={<TickCircleIcon />} size={40} intent="success" />
            <strong>{t('paid')}</strong>
          </div>
        ) : closed ? (
          <Callout intent="warning" icon={<TimeIcon />} data-testid="payment-closed">
            <p>{t('closed')}</p>
            {onRetry && <Button text={t('newCode')} icon={<RefreshIcon />} onClick={onRetry} />}
          </Callout>
        ) : failure ? (
          <PaymentFailureNotice reason={failure.reason} onRetry={failure.newOrder && !onRetry ? undefined : retryPayment} />
        ) : (
          payType !== null && (
            <PayWith order={order} payType={payType} onPaid={() => void polling.refetch()} onFailed={failed} />
          )
        )}
      </div>
    </section>
  );
}

interface PayWithProps {
  order: OrderPlaced;
  payType: PayType;
  onPaid: () => void;
  /** The payer's attempt failed here (the wallet): why. */
  onFailed: (reason: PaymentFailureReason) => void;
}

function PayWith({ order, payType, onPaid, onFailed }: PayWithProps) {
  const { t } = useTranslation('recharge', { keyPrefix: 'recharge.payment' });
  const [blocked, setBlocked] = useState(false);
  if (payType === PAY_TYPES.wechat || payType === PAY_TYPES.alipay) {
    const app = payType === PAY_TYPES.wechat ? 'wechat' : 'alipay';
    return (
      <div className="jc-pay-qr" data-testid="payment-qr" data-pay-code={order.payQrCode}>
        <div className={`jc-pay-qr-frame jc-pay-qr-frame--${app}`}>
          <QRCodeSVG value={order.payQrCode ?? ''} size={176} level="M" marginSize={1} title={t(`scan.${app}`)} />
        </div>
        <span className="jc-pay-scan">
          <Icon icon={<MobilePhoneIcon />} size={14} />
          {t(`scan.${app}`)}
        </span>
        <Waiting />
      </div>
    );
  }
  if (order.approveUrl) {
    const label = payType === PAY_TYPES.paypal ? t('payWith.paypal') : payType === PAY_TYPES.googlePay ? t('payWith.googlePay') : t('payWith.card');
    return (
      <div className="jc-pay-external" data-testid="payment-external">
        <Button
          size="large"
          intent="primary"
          icon={payType === PAY_TYPES.paypal ? <ShareIcon /> : <CreditCardIcon />}
          text={label}
          data-testid="payment-open"
          onClick={() => setBlocked(openPayerWindow(order.orderId, order.approveUrl!) === 'blocked')}
        />
        {blocked ? <PopupBlocked /> : <span className={Classes.TEXT_MUTED}>{t('newWindow')}</span>}
        <Waiting />
      </div>
    );
  }
  return <Wallet order={order} payType={payType as WalletPayType} onPaid={onPaid} onFailed={onFailed} />;
}

function PopupBlocked() {
  const { t } = useTranslation('recharge', { keyPrefix: 'rechargeFailures' });
  return (
    <Callout intent="warning" icon={<WarningSignIcon />} data-testid="payment-blocked">
      {t('blocked')}
    </Callout>
  );
}

/** Why a wallet payment failed, from the confirmation's refusal (1112 says it in data.failure). */
function failureOf(error: unknown): PaymentFailureReason {
  const said = error instanceof ApiError ? (error.data as { failure?: unknown } | undefined)?.failure : undefined;
  return typeof said === 'string' ? paymentFailureSchema.shape.reason.parse(said) : 'failed';
}

type WalletPayType = typeof PAY_TYPES.googlePay | typeof PAY_TYPES.paymentRequest;

function Wallet({ order, payType, onPaid, onFailed }: Omit<PayWithProps, 'payType'> & { payType: WalletPayType }) {
  const { t } = useTranslation('recharge', { keyPrefix: 'recharge.payment' });
  const confirm = useConfirmPay();
  const [busy, setBusy] = useState(false);
  const provider = walletProvider;
  if (!provider || !order.clientSecret) {
    // Wallet readiness is not reported as an error (spec seed 000 section 8): another way is offered.
    return (
      <Callout icon={<InfoSignIcon />} className="jc-pay-wallet-missing" data-testid="payment-wallet-missing">
        {t('walletMissing')}
      </Callout>
    );
  }
  const pay = async () => {
    setBusy(true);
    try {
      const paymentPlatformId = await provider({
        payType,
        totalFee: order.totalFee,
        currency: editionConfig().currency,
        clientSecret: order.clientSecret!,
      });
      if (!paymentPlatformId) {
        onFailed('cancelled'); // the payer closed the sheet
        return;
      }
      await confirm.mutateAsync({ orderId: order.orderId, payType, paymentPlatformId, payFee: order.totalFee });
      onPaid();
    } catch (error) {
      // Said in place with a retry (issue 14 amends spec seed 000 section 8, which kept the
      // sheet's failures silent); the HTTP client has shown the server's message as well.
      onFailed(failureOf(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="jc-pay-external" data-testid="payment-wallet">
      <Button
        size="large"
        intent="primary"
        icon={<CreditCardIcon />}
        loading={busy}
        text={payType === PAY_TYPES.googlePay ? t('payWith.googlePay') : t('payWith.card')}
        onClick={() => void pay()}
        data-testid="payment-wallet-pay"
      />
    </div>
  );
}

function Waiting() {
  const { t } = useTranslation('recharge', { keyPrefix: 'recharge.payment' });
  return (
    <span className="jc-pay-status" data-testid="payment-waiting">
      <Spinner size={14} />
      {t('waiting')}
    </span>
  );
}
