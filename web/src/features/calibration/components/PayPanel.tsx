import { Button, ButtonGroup, Callout } from '@blueprintjs/core';
import { useMutation } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { payTarget, startPayment, STATUS, type Application, type PayKind } from '@/lib/api/calibration';
import { editionConfig } from '@/lib/config';
import { OrderPdfButton } from './OrderPdfButton';
import { useMoney } from './money';

/** The edition's ways to pay an application (its pay types, as the server names them). */
const KINDS_BY_PAY_TYPE: readonly [number, PayKind][] = [[2, 'aliPay'], [1, 'wechatPay'], [20, 'paypal']];

/**
 * The pay step of an unpaid application: a provider's QR code to scan on a PC, the provider's page
 * on a phone; or pay later (`laterTo`: where that leads).
 */
export function PayPanel({ application, mobile, laterTo }: { application: Application; mobile: boolean; laterTo: string }) {
  const { t } = useTranslation('calibration');
  const money = useMoney();
  const offered = editionConfig().payTypes;
  const kinds = KINDS_BY_PAY_TYPE.filter(([payType]) => offered.includes(payType)).map(([, kind]) => kind);
  const pay = useMutation({
    mutationFn: (kind: PayKind) => startPayment(kind, application.applicationNumber, mobile),
    onSuccess: (payment) => {
      const target = payTarget(payment);
      // a phone goes to the provider's page; a PC scans the QR code, or approves at PayPal's page
      if (target && (mobile || payment.approveUrl)) window.location.assign(target);
    },
  });
  if (application.status !== STATUS.submitted) return null;
  const qr = !mobile ? pay.data?.payQrCode : null;
  return (
    <section className="jc-cal-pay" data-testid="calibration-pay">
      <h3>{t('preview.payTitle')} · {money(application.totalFee, application.currency)}</h3>
      <ButtonGroup className="jc-cal-pay-buttons">
        {kinds.map((kind) => (
          <Button key={kind} intent="primary" size="large" text={t(`preview.${kind}`)} data-testid={`calibration-pay-${kind}`}
            loading={pay.isPending && pay.variables === kind} onClick={() => pay.mutate(kind)} />
        ))}
      </ButtonGroup>
      {qr && (
        <Callout className="jc-cal-qr" data-testid="calibration-qr">
          <QRCodeSVG value={qr} size={176} level="M" marginSize={1} />
          <p>{t('preview.scan', { amount: money(application.totalFee, application.currency) })}</p>
        </Callout>
      )}
      <div className="jc-cal-actions">
        <Link to={laterTo} className="bp6-button bp6-minimal" data-testid="calibration-pay-later">{t('preview.payLater')}</Link>
        <OrderPdfButton application={application} />
      </div>
    </section>
  );
}
