import { Button, Callout, Classes, Drawer, H5, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { ErrorIcon, ShoppingCartIcon, TakeActionIcon, UndoIcon } from '@blueprintjs/icons';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDossier, type OrderDossier } from '../api/orders';
import { StatusTag } from './StatusTag';
import { HandlingDialog } from './HandlingDialog';
import { RefundDialog } from './RefundDialog';
import { RefundsSection } from './RefundsSection';
import { useDeskFormat } from './useDeskFormat';

interface OrderDrawerProps {
  orderId: number | null;
  /** The operator may handle orders (order.recharge:edit). */
  canHandle: boolean;
  /** The operator may refund orders and decide refunds awaiting approval (order.recharge:refund). */
  canRefund: boolean;
  onClose: () => void;
}

/**
 * One order whole: payer, what each device bought with its service before and after, references,
 * refunds, notifications, history; manual handling and refunds for those who may.
 */
export function OrderDrawer({ orderId, canHandle, canRefund, onClose }: OrderDrawerProps) {
  const { t } = useTranslation('orderdesk');
  const dossier = useDossier(orderId);
  const [dialog, setDialog] = useState<'handle' | 'refund' | null>(null);
  const order = dossier.data;
  const handleable = order?.handleable === true && canHandle;
  const refundable = order?.refundable === true && canRefund;
  return (
    <Drawer isOpen={orderId !== null} onClose={onClose} size={720} className="jc-od-drawer"
      title={order ? t('detail.title', { code: order.orderCode }) : t('details')} icon={<ShoppingCartIcon />}>
      <div className={Classes.DRAWER_BODY} data-testid="od-drawer">
        {order === undefined ? (
          dossier.isError ? <NonIdealState icon={<ErrorIcon />} title={t('detail.loadFailed')} /> : <Spinner />
        ) : (
          <DossierBody order={order} canRefund={canRefund} />
        )}
      </div>
      {(handleable || refundable) && (
        <div className={`${Classes.DRAWER_FOOTER} jc-od-footer`}>
          {handleable && (
            <Button intent="warning" icon={<TakeActionIcon />} text={t('handle.button')} onClick={() => setDialog('handle')} data-testid="od-handle" />
          )}
          {refundable && (
            <Button intent="danger" icon={<UndoIcon />} text={t('refund.button')} onClick={() => setDialog('refund')} data-testid="od-refund" />
          )}
        </div>
      )}
      {order && <HandlingDialog order={dialog === 'handle' ? order : null} onClose={() => setDialog(null)} />}
      {order && <RefundDialog order={dialog === 'refund' ? order : null} onClose={() => setDialog(null)} />}
    </Drawer>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="jc-od-field">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function DossierBody({ order, canRefund }: { order: OrderDossier; canRefund: boolean }) {
  const { t } = useTranslation('orderdesk');
  const format = useDeskFormat();
  const money = (cents: number | null) => format.money(cents, order.currency);
  const { when } = format;
  const service = order.orderDescription;
  return (
    <div className="jc-od-dossier">
      <section>
        <dl className="jc-od-fields">
          <Field label={t('filter.payStatus')}><StatusTag status={order.payStatus} /></Field>
          <Field label={t('column.account')}>
            {order.payer.userName}
            <div className="jc-od-sub">{[order.payer.phone, order.payer.email].filter(Boolean).join(' · ')}</div>
          </Field>
          <Field label={t('detail.description')}>{service}</Field>
          <Field label={t('column.payType')}>{t(`payType.${order.payType}`)}</Field>
          <Field label={t('column.amount')}>{money(order.orderFee)}</Field>
          <Field label={t('detail.paidAmount')}>{money(order.payFee)}</Field>
          {order.refundFee > 0 && <Field label={t('detail.refundedAmount')}><span data-testid="od-refunded">{money(order.refundFee)}</span></Field>}
          <Field label={t('detail.coupon')}>
            {order.couponCode ? `${order.couponCode} (−${money(order.couponFee)})` : '—'}
          </Field>
          <Field label={t('filter.invoiceStatus')}>{t(`invoiceStatus.${order.invoiceStatus}`)}</Field>
          <Field label={t('column.created')}>{when(order.gmtCreate)}</Field>
          <Field label={t('detail.paidAt')}>{when(order.payTime)}</Field>
          {order.closeTime && <Field label={t('detail.closedAt')}>{when(order.closeTime)}</Field>}
          {order.closeReason && <Field label={t('detail.closeReason')}>{t(`closeReason.${order.closeReason}`)}</Field>}
          {order.refundTime && <Field label={t('detail.refundedAt')}>{when(order.refundTime)}</Field>}
          <Field label={t('detail.paymentReference')}><code data-testid="od-payment-ref">{order.paymentReference ?? '—'}</code></Field>
          <Field label={t('detail.settlementReference')}><code>{order.settlementReference ?? '—'}</code></Field>
        </dl>
      </section>
      <section>
        <H5>{t('detail.lines')}</H5>
        <div className="jc-od-scroll">
          <HTMLTable compact className="jc-od-lines" data-testid="od-lines">
            <thead>
              <tr>
                <th>{t('detail.device')}</th>
                <th>{t('detail.bought')}</th>
                <th className="jc-od-num">{t('detail.price')}</th>
                <th>{t('detail.before')}</th>
                <th>{t('detail.after')}</th>
              </tr>
            </thead>
            <tbody>
              {order.lines.map((line) => (
                <tr key={line.deviceId}>
                  <td>
                    {line.deviceName ?? `#${line.deviceId}`}
                    <div className="jc-od-sub">{line.guid ?? t('detail.deleted')}</div>
                  </td>
                  <td>
                    {line.levelName && <div>{line.levelName}</div>}
                    {line.timeLength > 0 && <div>{t('detail.months', { count: line.timeLength })}</div>}
                    {line.presentationMonth > 0 && <div className="jc-od-sub">{t('detail.bonus', { count: line.presentationMonth })}</div>}
                    {line.smsCount > 0 && <div>{t('detail.sms', { count: line.smsCount })}</div>}
                    {line.voiceCount > 0 && <div>{t('detail.voice', { count: line.voiceCount })}</div>}
                  </td>
                  <td className="jc-od-num">{money(line.fee)}</td>
                  <td>
                    {line.beforeLevelName && <div>{line.beforeLevelName}</div>}
                    <div className="jc-od-sub">{line.beforeExpireTime ? when(line.beforeExpireTime) : '—'}</div>
                  </td>
                  <td data-testid="od-after">
                    {line.afterExpireTime ? when(line.afterExpireTime) : <span className="jc-od-sub">{t('detail.notPaid')}</span>}
                    {line.recomputed && <div><Tag minimal intent="warning">{t('detail.recomputed')}</Tag></div>}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      </section>
      <RefundsSection refunds={order.refunds} canDecide={canRefund} />
      <section>
        <H5>{t('detail.history')}</H5>
        {order.history.length === 0 ? (
          <p className="jc-od-sub">{t('detail.noHistory')}</p>
        ) : (
          <ol className="jc-od-history" data-testid="od-history">
            {order.history.map((event, index) => (
              <li key={index} data-kind={event.kind}>
                <strong>{t(`event.${event.kind}`)}</strong> · {when(event.at)} · {event.userName
                  ? t('detail.by', { name: event.userName }) : t('detail.bySystem')}
                {event.reason && <Callout compact className="jc-od-reason">{event.reason}</Callout>}
              </li>
            ))}
          </ol>
        )}
      </section>
      <section>
        <H5>{t('detail.notifications')}</H5>
        {order.notifications.length === 0 ? (
          <p className="jc-od-sub">{t('detail.noNotifications')}</p>
        ) : (
          <ul className="jc-od-notes" data-testid="od-notifications">
            {order.notifications.map((note, index) => (
              <li key={index}>
                <div>
                  <Tag minimal>{note.provider}</Tag> <Tag minimal intent={note.verdict.startsWith('settled') ? 'success' : 'none'}>
                    {note.verdict}</Tag> {when(note.receivedAt)} {note.amount !== null && `· ${money(note.amount)}`}
                </div>
                <details>
                  <summary>{t('detail.body')}</summary>
                  <pre className="jc-od-body">{note.body}</pre>
                </details>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
