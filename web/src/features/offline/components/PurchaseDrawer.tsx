import { Callout, Classes, Drawer, H5, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { ArrowRightIcon, ErrorIcon, ShoppingCartIcon } from '@blueprintjs/icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCents } from '@/lib/money';
import { formatInstant } from '@/lib/units';
import { usePurchase, type Purchase, type PurchaseDetail } from '../api/offline';
import { contentText } from '../content';
import { StateTag, StatusTag } from './Tags';

interface PurchaseDrawerProps {
  /** The purchase as its list row reads it; null: closed. */
  purchase: Purchase | null;
  /** The operator may read a purchase's devices (order.offlinebuy:detail); without it the row is shown. */
  canReadDetail: boolean;
  /** What may be done with it (delete, review), given the purchase as last read. */
  actions?: (purchase: Purchase) => ReactNode;
  /** Shown above the purchase (the outcome of a review just made). */
  notice?: ReactNode;
  onClose: () => void;
}

/** One offline purchase: what was bought, for whom and how it was paid, its review, and each device's recharge. */
export function PurchaseDrawer({ purchase, canReadDetail, actions, notice, onClose }: PurchaseDrawerProps) {
  const { t } = useTranslation('offline');
  const detail = usePurchase(purchase?.offlineId ?? null, canReadDetail);
  const shown: Purchase | undefined = detail.data ?? purchase ?? undefined;
  const footer = shown && actions?.(shown);
  return (
    <Drawer isOpen={purchase !== null} onClose={onClose} size={760} className="jc-ol-drawer" icon={<ShoppingCartIcon />}
      title={purchase ? t('detail.title', { number: purchase.offlineId }) : ''}>
      <div className={Classes.DRAWER_BODY} data-testid="ol-drawer" data-offline-id={purchase?.offlineId}>
        <div className="jc-ol-detail">
          {notice}
          {shown && <Summary purchase={shown} />}
          {detail.data ? (
            <Devices purchase={detail.data} />
          ) : !canReadDetail ? (
            <Callout compact>{t('detail.noDetail')}</Callout>
          ) : detail.isError ? (
            <NonIdealState icon={<ErrorIcon />} title={t('detail.loadFailed')} />
          ) : (
            <Spinner />
          )}
        </div>
      </div>
      {footer && <div className={`${Classes.DRAWER_FOOTER} jc-ol-footer`}>{footer}</div>}
    </Drawer>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="jc-ol-field">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Summary({ purchase }: { purchase: Purchase }) {
  const { t, i18n } = useTranslation('offline');
  const when = (iso: string | null) => (iso ? formatInstant(iso, i18n.language, false) : '—');
  return (
    <dl className="jc-ol-fields" data-testid="ol-summary">
      <Field label={t('column.status')}><StatusTag status={purchase.status} /></Field>
      <Field label={t('column.customer')}>{purchase.customerName}</Field>
      <Field label={t('column.content')}>{contentText(t, purchase)}</Field>
      <Field label={t('column.amount')}>{formatCents(purchase.amount, purchase.currency, i18n.language)}</Field>
      <Field label={t('column.payType')}>{t(`payType.${purchase.payType}`)}</Field>
      <Field label={t('column.devices')}>
        <span data-testid="ol-detail-counts">
          {t('deviceCount', { count: purchase.deviceCount })}
          {purchase.status === 2 && ` · ${t('outcome', { recharged: purchase.rechargedCount, failed: purchase.failedCount })}`}
        </span>
      </Field>
      <Field label={t('detail.recorded')}>{when(purchase.gmtCreate)} · {purchase.createdBy ?? '—'}</Field>
      <Field label={t('detail.reviewed')}>{purchase.reviewedAt ? `${when(purchase.reviewedAt)} · ${purchase.reviewedBy ?? '—'}` : '—'}</Field>
      {purchase.reviewNote && <Field label={t('detail.note')}>{purchase.reviewNote}</Field>}
      <Field label={t('detail.remark')}>{purchase.remark || '—'}</Field>
    </dl>
  );
}

function Devices({ purchase }: { purchase: PurchaseDetail }) {
  const { t, i18n } = useTranslation('offline');
  const when = (iso: string | null) => (iso ? formatInstant(iso, i18n.language, false) : '—');
  return (
    <section>
      <H5>{t('detail.devices')}</H5>
      <HTMLTable compact striped className="jc-ol-devices jc-phone-cards" data-testid="ol-devices">
        <thead>
          <tr>
            <th>{t('column.device')}</th>
            <th>{t('column.state')}</th>
            <th>{t('column.expiry')}</th>
          </tr>
        </thead>
        <tbody>
          {purchase.devices.map((device) => (
            <tr key={device.guid} data-testid="ol-device" data-guid={device.guid} data-state={device.state}>
              <td data-label={t('column.device')}>
                <span>
                  <span className="jc-ol-mono">{device.guid}</span>
                  <span className="jc-ol-sub jc-ol-block">{device.deviceName ?? (device.deviceId === null ? t('detail.deleted') : '')}</span>
                </span>
              </td>
              <td data-label={t('column.state')}>
                <span>
                  <StateTag state={device.state} />
                  {device.reason && <span className="jc-ol-problem jc-ol-block" data-testid="ol-reason">{device.reason}</span>}
                </span>
              </td>
              <td data-label={t('column.expiry')} data-testid="ol-expiry">
                {/* read when the purchase is approved: nothing to show before */}
                {device.expireTimeBefore === null && device.expireTimeAfter === null ? '—' : (
                  <span className="jc-ol-expiry">
                    <span>{when(device.expireTimeBefore)}</span>
                    <ArrowRightIcon size={12} aria-label={t('detail.to')} />
                    <span>{device.state === 1 ? when(device.expireTimeAfter) : '—'}</span>
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </section>
  );
}
