/**
 * The paying drawer (spec seed 000 sections 2, 4, 8 and 9): the chosen level's year options, what
 * each device will have once paid (its level and expiry, from the server's quote, then the placed
 * order's promise), the payment methods of the edition, the invoice option with a saved bill (or a new one), in a batch
 * what each device pays, and the payment itself (QR code, PayPal's page or the wallet) with the
 * total. For one device buying a time-limited option, the customer may ask to renew automatically
 * (issue 19: off at first; the order then carries `autoRenew`). The order is asked for again 500 ms
 * after the option, the method, the invoice or the renewal changes; none while the invoice is on and
 * no bill is chosen. Its state is polled every 3 s; once paid the drawer closes, says so (and that
 * the invoice will follow, or renewal is on, when asked for) and the device lists are asked again.
 * Closing the drawer stops the polling and forgets every choice.
 */
import {
  Classes,
  Drawer,
  HTMLTable,
  NonIdealState,
  RadioCard,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import { ErrorIcon, GiftBoxIcon, ShoppingCartIcon } from '@blueprintjs/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useMemo, useState, type InputHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '@/hooks/useDebouncedValue';
import { editionConfig } from '@/lib/config';
import { ApiError, CancelledError } from '@/lib/http';
import { notify } from '@/lib/notify';
import { rechargeKeys, useBatchQuote, useYearOptions, type DepositInfo, type Level, type YearOption } from './api/levels';
import {
  createBatchServiceOrder,
  createServiceOrder,
  isPayable,
  ORDER_DEBOUNCE_MS,
  type OrderPlaced,
  type OrderStatus,
  type ServiceOrderBody,
  type ServiceOrderFields,
} from './api/orders';
import type { MyOrder } from './api/myOrders';
import { AutoRenewOption, offersAutoRenew } from './components/AutoRenewOption';
import { LevelChangeResult } from './components/LevelChangeResult';
import { PaymentPanel } from './components/PaymentPanel';
import { ResumedPayment } from './components/ResumedPayment';
import { discountBadgeText, durationText, formatMoney, money } from './format';
import { InvoiceOption, type InvoiceChoice } from './InvoiceDrawer';
import { offeredPayTypes, type PayType } from './values';
import { useSlots, type AppliedCoupon } from '@/lib/slots';
import './recharge.css';

export const PAYING_DRAWER_WIDTH = 780;

export interface PayingDrawerProps {
  /** Whether the drawer is shown; every choice starts afresh at each opening. */
  isOpen: boolean;
  /** The level being bought; kept while the drawer slides away. */
  level: Level | null;
  /** The devices it is bought for: one, or several of one type (a batch). */
  devices: readonly DepositInfo[];
  /** Closes the drawer (also after the payment). */
  onClose: () => void;
  /** An unpaid order placed earlier (Pay in My orders): the drawer shows its payment instead of the choices. */
  order?: MyOrder | null;
}

/** The paying drawer; see the module comment. */
export function PayingDrawer({ isOpen, level, devices, onClose, order = null }: PayingDrawerProps) {
  const { t } = useTranslation('recharge', { keyPrefix: 'recharge' });
  return (
    <Drawer
      isOpen={isOpen}
      onClose={onClose}
      size={PAYING_DRAWER_WIDTH}
      icon={<ShoppingCartIcon />}
      title={order || level ? t('paying.title', { level: order ? order.orderDescription : level?.levelName }) : t('paying.titleNoLevel')}
      className="jc-paying-drawer"
    >
      {order && <ResumedPayment key={order.orderId} order={order} active={isOpen} onClose={onClose} />}
      {!order && level && devices.length > 0 && (
        <PayingContent
          key={`${level.levelId}:${devices.map((d) => d.deviceId).join(',')}`}
          active={isOpen}
          level={level}
          devices={devices}
          onClose={onClose}
        />
      )}
    </Drawer>
  );
}

/** The option shown first: the recommended one, else the first. */
function defaultOption(options: readonly YearOption[] | undefined): YearOption | undefined {
  return options?.find((option) => option.recommended) ?? options?.[0];
}

/** The radio input of a card: its group's name, and a test id. */
function inputOf(name: string, testId: string): InputHTMLAttributes<HTMLInputElement> {
  return { name, 'data-testid': testId } as InputHTMLAttributes<HTMLInputElement>;
}

/** What the drawer orders: the service fields, and for one device whether to renew automatically. */
type OrderRequest = ServiceOrderFields & Pick<ServiceOrderBody, 'autoRenew'>;

interface PlacedOrder {
  key: string;
  order: OrderPlaced;
}

interface PayingContentProps {
  /** False while the drawer closes: no order is asked for or polled any more. */
  active: boolean;
  level: Level;
  devices: readonly DepositInfo[];
  onClose: () => void;
}

function PayingContent({ active, level, devices, onClose }: PayingContentProps) {
  const { t } = useTranslation('recharge', { keyPrefix: 'recharge' });
  const queryClient = useQueryClient();
  const config = editionConfig();
  const edition = config.edition;
  const methods = useMemo(() => offeredPayTypes(edition, config.payTypes), [edition, config.payTypes]);
  const first = devices[0]!;
  const batch = devices.length > 1;

  const years = useYearOptions({ deviceId: first.deviceId, levelId: level.levelId, packageId: level.packageId });
  const [yearId, setYearId] = useState<number | null>(null);
  const option = years.data?.find((candidate) => candidate.id === yearId) ?? defaultOption(years.data);
  const [payType, setPayType] = useState<PayType | null>(methods[0] ?? null);
  // The invoice option picks the default bill (else the first) when switched on.
  const [invoice, setInvoice] = useState<InvoiceChoice>({ applyFlag: false, billId: null });
  const { applyFlag, billId } = invoice;
  // Kept while a lifelong option is chosen, but asked for only where the server offers it.
  const [autoRenewOn, setAutoRenew] = useState(false);
  const renewable = offersAutoRenew(devices.length, option);
  const autoRenew = renewable && autoRenewOn;

  const deviceIdList = useMemo(() => devices.map((device) => device.deviceId), [devices]);
  // Asked for one device too: it says what each device will have once paid (LevelChangeResult).
  const quote = useBatchQuote(
    option ? { deviceIdList, levelId: level.levelId, levelYearId: option.id, servicePackageId: level.packageId } : null,
  );
  const quoteFor = new Map(quote.data?.map((row) => [row.deviceId, row.totalFee]));
  const totalFee = !option ? null : batch ? (quote.data ? quote.data.reduce((sum, row) => sum + row.totalFee, 0) : null) : option.price;

  const needsBill = applyFlag && billId === null;
  // A coupon (issue 18) priced on this total; one priced on another total is being priced again.
  const [coupon, setCoupon] = useState<AppliedCoupon | null>(null);
  const { CouponField } = useSlots();
  const couponPending = coupon !== null && coupon.totalFee !== totalFee;
  const couponFields = coupon && !couponPending ? { couponCode: coupon.couponCode, couponFee: coupon.couponFee } : {};
  const charged = coupon && !couponPending ? coupon.payFee : totalFee;
  const request: OrderRequest | null =
    option && totalFee !== null && !needsBill && payType !== null && !couponPending
      ? {
          applyFlag,
          billId: applyFlag ? billId : null,
          payType,
          totalFee,
          levelId: level.levelId,
          levelYearId: option.id,
          serviceFee: option.serviceFee,
          servicePackageId: level.packageId,
          activityId: option.activityId,
          presentationMonth: option.presentationMonth,
          ...couponFields,
          ...(autoRenew ? { autoRenew } : {}),
        }
      : null;
  const requestKey = request && active ? JSON.stringify(request) : null;
  const settledKey = useDebouncedValue(requestKey, ORDER_DEBOUNCE_MS);
  const [attempt, setAttempt] = useState(0);
  const [placed, setPlaced] = useState<PlacedOrder | null>(null);
  const [failure, setFailure] = useState<{ key: string; message: string } | null>(null);

  // Effect events: the devices are fixed for this drawer's life (its key), and a change of language
  // must not place the order again, so neither is a reason to run the effect below.
  const placeOrder = useEffectEvent(({ autoRenew: renew, ...fields }: OrderRequest) =>
    batch
      ? createBatchServiceOrder({ ...fields, deviceIdList }) // the batch call takes no renewal
      : createServiceOrder({ ...fields, deviceId: first.deviceId, simIccid: first.simIccid, ...(renew ? { autoRenew: true } : {}) }),
  );
  const text = useEffectEvent((key: 'paying.orderFailed' | 'paying.errorTitle' | 'paying.requestFailed') => t(key));

  useEffect(() => {
    if (settledKey === null) return undefined;
    let current = true;
    const fields = JSON.parse(settledKey) as OrderRequest;
    const place = placeOrder(fields);
    place.then(
      (order) => {
        if (!current) return;
        if (!isPayable(order, fields.payType)) {
          const message = text('paying.orderFailed');
          notify.error(message, text('paying.errorTitle'));
          setFailure({ key: settledKey, message });
          return;
        }
        setPlaced({ key: settledKey, order });
      },
      (error: unknown) => {
        if (!current || error instanceof CancelledError) return;
        // The HTTP client has shown the server's message (or the default one) already.
        const message = error instanceof ApiError ? error.message : text('paying.requestFailed');
        setFailure({ key: settledKey, message });
      },
    );
    return () => {
      current = false;
    };
  }, [settledKey, attempt]);

  const order = placed && placed.key === requestKey && settledKey === requestKey ? placed.order : null;
  const error = failure && failure.key === requestKey && settledKey === requestKey ? failure.message : null;
  const quoting = batch && option !== undefined && !quote.data && !quote.isError;
  const waiting = (requestKey !== null && !order && !error) || (quoting && !needsBill);
  const retry = () => {
    setPlaced(null);
    setFailure(null);
    setAttempt((n) => n + 1);
  };

  const paid = (status: OrderStatus) => {
    const lines = [t('paying.paid')];
    if (status.applyFlag || applyFlag) lines.push(t('paying.invoiceLine'));
    if (autoRenew) lines.push(t('paying.autoRenew.paid'));
    notify.success(lines.join(' '));
    // The device screens show the new level and expiry (devices/api/devices.ts deviceKeys.all,
    // dialogs/api/expired.ts expiredKeys), and this drawer's header its new service.
    void queryClient.invalidateQueries({ queryKey: ['devices'] });
    void queryClient.invalidateQueries({ queryKey: ['expiry', 'devices'] });
    void queryClient.invalidateQueries({ queryKey: rechargeKeys.all });
    onClose();
  };

  const placeholder = payType === null
    ? t('paying.noMethod')
    : needsBill
    ? t('paying.chooseBill')
    : quote.isError
      ? t('paying.quoteFailed')
      : years.isError
        ? t('paying.yearsFailed')
        : years.data?.length === 0
          ? t('paying.noYears')
          : undefined;

  return (
    <div className={`${Classes.DRAWER_BODY} jc-paying-body`} data-testid="paying-drawer">
      <div className="jc-paying-options">
        <section className="jc-paying-section" aria-labelledby="jc-paying-years">
          <h4 id="jc-paying-years" className="jc-paying-heading">
            {t('paying.duration')}
          </h4>
          {years.data === undefined ? (
            years.isError ? (
              <NonIdealState icon={<ErrorIcon />} title={t('paying.yearsFailed')} />
            ) : (
              <Spinner size={24} />
            )
          ) : (
            <div className="jc-year-grid" role="radiogroup" aria-labelledby="jc-paying-years">
              {years.data.map((candidate) => (
                <YearCard
                  key={candidate.id}
                  option={candidate}
                  dataPlan={!batch && first.jcIccidStatus === 1 && Boolean(first.simIccid)}
                  checked={candidate.id === option?.id}
                  onChoose={() => setYearId(candidate.id)}
                />
              ))}
            </div>
          )}
        </section>

        {option && (
          <LevelChangeResult
            changes={order?.levelChanges ?? quote.data}
            devices={devices}
            loading={quote.isFetching}
            error={order ? null : quote.error}
          />
        )}

        <section className="jc-paying-section" aria-labelledby="jc-paying-methods">
          <h4 id="jc-paying-methods" className="jc-paying-heading">
            {t('paying.method')}
          </h4>
          <div className="jc-method-row" role="radiogroup" aria-labelledby="jc-paying-methods">
            {methods.map((method) => (
              <RadioCard
                key={method}
                className={`jc-method-card jc-method-card--${method}`}
                checked={payType === method}
                onChange={() => setPayType(method)}
                label={t(`paying.methods.${method}`)}
                value={String(method)}
                inputProps={inputOf('jc-pay-type', `pay-type-${method}`)}
                compact
              />
            ))}
          </div>
        </section>

        {renewable && (
          <section className="jc-paying-section" aria-labelledby="jc-paying-renewal">
            <h4 id="jc-paying-renewal" className="jc-paying-heading">
              {t('paying.autoRenew.heading')}
            </h4>
            <AutoRenewOption checked={autoRenewOn} levelName={level.levelName} onChange={setAutoRenew} />
          </section>
        )}

        <section className="jc-paying-section" aria-labelledby="jc-paying-invoice">
          <h4 id="jc-paying-invoice" className="jc-paying-heading">
            {t('paying.invoice')}
          </h4>
          <InvoiceOption value={invoice} onChange={setInvoice} />
        </section>

        <section className="jc-paying-section" aria-labelledby="jc-paying-coupon">
          <h4 id="jc-paying-coupon" className="jc-paying-heading">
            {t('paying.coupon')}
          </h4>
          <CouponField totalFee={totalFee} value={coupon} onChange={setCoupon} />
        </section>

        {batch && (
          <section className="jc-paying-section" aria-labelledby="jc-paying-devices">
            <h4 id="jc-paying-devices" className="jc-paying-heading">
              {t('paying.devices', { count: devices.length })}
            </h4>
            <HTMLTable compact striped className="jc-recharge-table" data-testid="quote-table">
              <thead>
                <tr>
                  <th scope="col">{t('header.name')}</th>
                  <th scope="col">{t('header.guid')}</th>
                  <th scope="col" className="jc-num">
                    {t('paying.amount')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {devices.map((device) => (
                  <tr key={device.deviceId} data-testid="quote-row">
                    <td>{device.deviceName}</td>
                    <td className="jc-mono">{device.deviceGuid}</td>
                    <td className="jc-num" data-testid="quote-amount">
                      {quote.isFetching && !quote.data ? <Spinner size={12} /> : money(quoteFor.get(device.deviceId), edition)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </section>
        )}
      </div>

      <aside className="jc-paying-pay">
        <PaymentPanel
          order={order}
          payType={payType}
          totalFee={charged}
          loading={waiting || couponPending}
          placeholder={placeholder}
          error={error}
          onRetry={retry}
          onPaid={paid}
        />
        <p className={`jc-paying-note ${Classes.TEXT_MUTED}`}>
          {t('paying.forDevices', { count: devices.length })}
          {option && (
            <>
              {' · '}
              {durationText(t, option.timeLength)}
              {option.presentationMonth > 0 && ` + ${t('levels.bonus', { count: option.presentationMonth })}`}
            </>
          )}
        </p>
      </aside>

    </div>
  );
}

interface YearCardProps {
  option: YearOption;
  /** The device pays the data fee too (its SIM has an active plan). */
  dataPlan: boolean;
  checked: boolean;
  onChoose: () => void;
}

function YearCard({ option, dataPlan, checked, onChoose }: YearCardProps) {
  const { t, i18n } = useTranslation('recharge', { keyPrefix: 'recharge' });
  const badge = option.discountBadge && discountBadgeText(t, i18n.language, option.discountBadge);
  const listed = option.serviceFee + (dataPlan ? option.dataFee : 0);
  return (
    <RadioCard
      className="jc-year-card"
      checked={checked}
      onChange={onChoose}
      value={String(option.id)}
      inputProps={inputOf('jc-year-option', `year-${option.id}`)}
      alignIndicator="end"
      compact
    >
      <span className="jc-year-card-body" data-testid="year-option">
        <span className="jc-year-term">
          <strong>{durationText(t, option.timeLength)}</strong>
          {option.recommended && (
            <Tag minimal intent="primary" round>
              {t('paying.recommended')}
            </Tag>
          )}
        </span>
        <span className="jc-year-price">
          <span className="jc-year-amount">{formatMoney(option.price, option.currency)}</span>
          {listed > option.price && <s className="jc-level-original">{formatMoney(listed, option.currency)}</s>}
        </span>
        <span className="jc-year-tags">
          {badge && (
            <Tag intent="danger" round minimal>
              {badge}
            </Tag>
          )}
          {option.presentationMonth > 0 && (
            <Tag intent="warning" round minimal icon={<GiftBoxIcon />}>
              {t('levels.bonus', { count: option.presentationMonth })}
            </Tag>
          )}
        </span>
      </span>
    </RadioCard>
  );
}

