import {
  Button,
  Callout,
  Classes,
  Drawer,
  FormGroup,
  HTMLSelect,
  Icon,
  InputGroup,
  NonIdealState,
  RadioGroup,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import {
  ChatIcon, ErrorIcon, LockIcon, MobilePhoneIcon, PhoneIcon, RefreshIcon, TickCircleIcon,
} from '@blueprintjs/icons';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { editionConfig } from '@/lib/config';
import { ApiError, CancelledError } from '@/lib/http';
import { notify } from '@/lib/notify';
import { useAlertPackages, useCountryCodes, type AlertPackage } from './api/alerts';
import {
  createBatchSmsOrder,
  createSmsOrder,
  isPayable,
  ORDER_DEBOUNCE_MS,
  type BatchSmsOrderBody,
  type OrderPlaced,
  type OrderStatus,
  type SmsOrderBody,
} from './api/orders';
import { PaymentPanel } from './components/PaymentPanel';
import { discountBadgeText, formatMoney, money } from './format';
import { InvoiceOption, type InvoiceChoice } from './InvoiceDrawer';
import {
  countryCodeRule,
  offeredPayTypes,
  stockIntent,
  type Edition,
  type PayType,
} from './values';
import './alertDrawers.css';

/** Width of the SMS/voice drawer: packages on the left, the payment on the right. */
export const SMS_DRAWER_WIDTH = 900;

/** A device SMS and voice packages are bought for. */
export interface RechargeDevice {
  deviceId: number;
  deviceName: string;
  /** Calling code without '+'; null: none yet (the order sets it). */
  countryCode: string | null;
  simIccid: string | null;
  /** Messages left; shown red at 50 or below when given. */
  smsCount?: number;
  /** Calls left. */
  voiceCount?: number;
}

export interface SmsVoiceDrawerProps {
  /** Whether the drawer is shown; closing it stops the polling and forgets the choices. */
  isOpen: boolean;
  /** One device, or several ('... In Bulk'): they must share a country code. */
  devices: RechargeDevice[];
  /** Closes the drawer (Esc, the close button, and once the order is paid). */
  onClose(): void;
  /** The order was paid (the success notice is shown already): the parent refreshes its data. */
  onPaid(status: OrderStatus): void;
}

/** The country code of an order for `devices`; `mixed` when they do not share one. */
export function batchCountryCode(edition: Edition, devices: Pick<RechargeDevice, 'countryCode'>[]) {
  const codes = [...new Set(devices.map((device) => device.countryCode?.trim()).filter((code): code is string => !!code))];
  const rule = countryCodeRule(edition, codes[0]);
  const mixed = codes.length > 1 || (codes.length === 1 && codes[0] !== rule.code);
  return { ...rule, mixed };
}

export interface SmsChoice {
  devices: RechargeDevice[];
  countryCode: string;
  sms: AlertPackage | null;
  voice: AlertPackage | null;
  /** Null when no pay type is offered: no order then. */
  payType: PayType | null;
  invoice: InvoiceChoice;
}

/** Cents every device pays, and the whole order: (SMS price + voice price) × devices. */
export function smsTotals(sms: AlertPackage | null, voice: AlertPackage | null, devices: number) {
  const perDevice = (sms?.price ?? 0) + (voice?.price ?? 0);
  return { perDevice, total: perDevice * devices };
}

/**
 * The order the choice asks for, or null when none is due: no package chosen, or the invoice
 * option on without a bill. Fees are the packages' listed fees; the server checks every figure.
 */
export function smsOrderBody(choice: SmsChoice): SmsOrderBody | BatchSmsOrderBody | null {
  const { devices, sms, voice, invoice } = choice;
  if (devices.length === 0 || (!sms && !voice) || choice.payType === null) return null;
  if (invoice.applyFlag && invoice.billId == null) return null;
  const fields = {
    applyFlag: invoice.applyFlag,
    ...(invoice.applyFlag ? { billId: invoice.billId } : {}),
    payType: choice.payType,
    countryCode: choice.countryCode,
    smsPackageId: sms?.packageId ?? null,
    smsCount: sms?.smsCount ?? 0,
    smsFee: sms?.packageFee ?? 0,
    voicePackageId: voice?.packageId ?? null,
    voiceCount: voice?.smsCount ?? 0,
    voiceFee: voice?.packageFee ?? 0,
    totalFee: smsTotals(sms, voice, devices.length).total,
  };
  if (devices.length === 1) {
    const [device] = devices as [RechargeDevice];
    return { ...fields, deviceId: device.deviceId, simIccid: device.simIccid };
  }
  return { ...fields, deviceIdList: devices.map((device) => device.deviceId) };
}

/** The SMS/voice purchase drawer: 'Buy SMS and Voice Package' (one device) or '... In Bulk'. */
export function SmsVoiceDrawer({ isOpen, devices, onClose, onPaid }: SmsVoiceDrawerProps) {
  const { t } = useTranslation('recharge', { keyPrefix: 'rechargeAlerts' });
  return (
    <Drawer
      isOpen={isOpen}
      onClose={onClose}
      size={SMS_DRAWER_WIDTH}
      title={devices.length > 1 ? t('sms.titleBulk') : t('sms.title')}
      icon={<MobilePhoneIcon />}
      className="jc-extra-drawer jc-sms-drawer"
    >
      {isOpen && <SmsVoiceBody devices={devices} onClose={onClose} onPaid={onPaid} />}
    </Drawer>
  );
}

type OrderState =
  | { phase: 'idle' }
  | { phase: 'waiting' }
  | { phase: 'placed'; order: OrderPlaced }
  | { phase: 'failed'; message: string };

function SmsVoiceBody({ devices, onClose, onPaid }: Omit<SmsVoiceDrawerProps, 'isOpen'>) {
  const { t } = useTranslation('recharge', { keyPrefix: 'rechargeAlerts' });
  const { t: common } = useTranslation('common');
  const { edition, payTypes: offered } = editionConfig();
  const rule = useMemo(() => batchCountryCode(edition, devices), [edition, devices]);
  const [countryCode, setCountryCode] = useState(rule.code);
  const packages = useAlertPackages(countryCode, !rule.mixed);
  const payTypes = useMemo(() => offeredPayTypes(edition, offered), [edition, offered]);
  const [payType, setPayType] = useState<PayType | null>(payTypes[0] ?? null);
  const [sms, setSms] = useState<AlertPackage | null>(null);
  const [voice, setVoice] = useState<AlertPackage | null>(null);
  const [invoice, setInvoice] = useState<InvoiceChoice>({ applyFlag: false, billId: null });
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<OrderState>({ phase: 'idle' });

  const body = rule.mixed ? null : smsOrderBody({ devices, countryCode, sms, voice, payType, invoice });
  const bodyKey = body ? JSON.stringify(body) : null;
  const { perDevice, total } = smsTotals(sms, voice, devices.length);

  // Each change of the choices drops the order shown (its polling stops) and asks for a new one
  // once they have stood still for 500 ms; a late answer to an older choice is ignored.
  useEffect(() => {
    if (!bodyKey) {
      setState({ phase: 'idle' });
      return undefined;
    }
    setState({ phase: 'waiting' });
    let live = true;
    const request = JSON.parse(bodyKey) as SmsOrderBody | BatchSmsOrderBody;
    const timer = setTimeout(() => {
      const placing = 'deviceIdList' in request ? createBatchSmsOrder(request) : createSmsOrder(request);
      placing.then(
        (order) => {
          if (!live) return;
          if (isPayable(order, request.payType)) setState({ phase: 'placed', order });
          else setState({ phase: 'failed', message: t('sms.noPayCode') });
        },
        (error: unknown) => {
          if (!live || error instanceof CancelledError) return;
          const message = error instanceof ApiError && error.message ? error.message : common('http.errorMessage');
          setState({ phase: 'failed', message });
        },
      );
    }, ORDER_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [bodyKey, attempt, t, common]);

  const changeCountry = (code: string) => {
    setCountryCode(code);
    setSms(null);
    setVoice(null);
  };

  const paid = useCallback(
    (status: OrderStatus) => {
      notify.success(status.applyFlag ? `${t('sms.paid')} ${t('sms.invoiceRequested')}` : t('sms.paid'));
      onPaid(status);
      onClose();
    },
    [onClose, onPaid, t],
  );

  const placeholder = rule.mixed
    ? t('sms.countryMismatch')
    : payType === null
      ? t('sms.noMethod')
    : !sms && !voice
      ? t('sms.chooseFirst')
      : invoice.applyFlag && invoice.billId == null
        ? t('sms.chooseInvoice')
        : undefined;

  return (
    <div className={Classes.DRAWER_BODY} data-testid="sms-drawer">
      <div className="jc-sms-layout">
        <div className="jc-sms-main">
          <DevicesSection devices={devices} showCountry={edition === 'international' || rule.mixed} />
          <section className="jc-drawer-section">
            {rule.mixed ? (
              <Callout intent="danger" icon={<ErrorIcon />} role="alert" title={t('sms.countryCode')} data-testid="country-code-error">
                {t('sms.countryMismatch')}
              </Callout>
            ) : (
              <FormGroup
                label={t('sms.countryCode')}
                labelFor="jc-sms-country"
                className="jc-sms-country"
                helperText={rule.locked ? t('sms.countryLocked') : undefined}
              >
                <CountryCodeField id="jc-sms-country" value={countryCode} locked={rule.locked} onChange={changeCountry} />
              </FormGroup>
            )}
          </section>
          {!rule.mixed && (
            <section className="jc-drawer-section" aria-busy={packages.isPending}>
              {packages.isPending ? (
                <Spinner size={28} className="jc-sms-loading" aria-label={t('loading')} />
              ) : packages.isError ? (
                <NonIdealState
                  icon={<ErrorIcon />}
                  title={t('sms.loadFailed')}
                  action={<Button icon={<RefreshIcon />} text={t('retry')} onClick={() => void packages.refetch()} />}
                />
              ) : (
                <>
                  <PackageList
                    kind="sms"
                    packages={packages.data.smsList}
                    chosen={sms}
                    onToggle={(item) => setSms((current) => (current?.packageId === item.packageId ? null : item))}
                  />
                  <PackageList
                    kind="voice"
                    packages={packages.data.voiceList}
                    chosen={voice}
                    onToggle={(item) => setVoice((current) => (current?.packageId === item.packageId ? null : item))}
                  />
                </>
              )}
            </section>
          )}
          <section className="jc-drawer-section">
            <FormGroup label={t('sms.payType')} className="jc-choice-group">
              <RadioGroup
                inline
                name="jc-sms-pay-type"
                selectedValue={payType ?? undefined}
                onChange={(event) => setPayType(Number(event.currentTarget.value) as PayType)}
                options={payTypes.map((type) => ({ value: type, label: t(`payTypes.${type}`) }))}
              />
            </FormGroup>
            <FormGroup label={t('invoice.option')} className="jc-sms-invoice">
              <InvoiceOption value={invoice} onChange={setInvoice} />
            </FormGroup>
          </section>
        </div>
        <aside className="jc-sms-pay">
          <dl className="jc-sms-summary" data-testid="sms-summary">
            <dt>{t('sms.smsPackage')}</dt>
            <dd>{sms ? t('sms.messages', { count: sms.smsCount }) : '—'}</dd>
            <dt>{t('sms.voicePackage')}</dt>
            <dd>{voice ? t('sms.calls', { count: voice.smsCount }) : '—'}</dd>
            {devices.length > 1 && perDevice > 0 && (
              <>
                <dt>{t('sms.perDevice')}</dt>
                <dd data-testid="sms-per-device">
                  {money(perDevice, edition)} × {devices.length}
                </dd>
              </>
            )}
          </dl>
          <PaymentPanel
            order={state.phase === 'placed' ? state.order : null}
            payType={payType}
            totalFee={total}
            loading={state.phase === 'waiting'}
            placeholder={placeholder}
            error={state.phase === 'failed' ? state.message : null}
            onRetry={() => setAttempt((n) => n + 1)}
            onPaid={paid}
          />
        </aside>
      </div>
    </div>
  );
}

function DevicesSection({ devices, showCountry }: { devices: RechargeDevice[]; showCountry: boolean }) {
  const { t } = useTranslation('recharge', { keyPrefix: 'rechargeAlerts' });
  const { edition } = editionConfig();
  return (
    <section className="jc-drawer-section jc-sms-devices" data-testid="sms-devices">
      <h4 className="jc-drawer-subtitle">{devices.length > 1 ? t('sms.devices', { count: devices.length }) : t('sms.device')}</h4>
      <ul className="jc-sms-device-list">
        {devices.map((device) => (
          <li key={device.deviceId}>
            <Icon icon={<MobilePhoneIcon />} className={Classes.TEXT_MUTED} />
            <span className="jc-sms-device-name">{device.deviceName}</span>
            {showCountry && device.countryCode && (
              <Tag minimal round>{`+${device.countryCode}`}</Tag>
            )}
            {device.smsCount != null && (
              <Tag minimal intent={stockIntent(device.smsCount)}>{t('sms.smsLeft', { count: device.smsCount })}</Tag>
            )}
            {edition === 'domestic' && device.voiceCount != null && (
              <Tag minimal intent={stockIntent(device.voiceCount)}>{t('sms.voiceLeft', { count: device.voiceCount })}</Tag>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

interface CountryCodeFieldProps {
  id: string;
  value: string;
  locked: boolean;
  onChange(code: string): void;
}

function CountryCodeField({ id, value, locked, onChange }: CountryCodeFieldProps) {
  const { t } = useTranslation('recharge', { keyPrefix: 'rechargeAlerts' });
  const codes = useCountryCodes(!locked);
  const label = (code: string) => {
    const item = codes.data?.find((entry) => entry.dataCode === code);
    return item ? `+${code} ${item.label}` : `+${code}`;
  };
  if (locked) {
    return <InputGroup id={id} value={`+${value}`} readOnly disabled leftIcon={<LockIcon />} className="jc-sms-country-input" aria-label={t('sms.countryCode')} />;
  }
  const options = (codes.data ?? []).map((item) => ({ value: item.dataCode, label: label(item.dataCode) }));
  if (!options.some((option) => option.value === value)) options.unshift({ value, label: label(value) });
  return (
    <HTMLSelect id={id} value={value} onChange={(event) => onChange(event.currentTarget.value)} options={options} className="jc-sms-country-select" />
  );
}

interface PackageListProps {
  kind: 'sms' | 'voice';
  packages: AlertPackage[];
  chosen: AlertPackage | null;
  onToggle(item: AlertPackage): void;
}

/** Packages as cards; choosing the chosen one again deselects it. */
function PackageList({ kind, packages, chosen, onToggle }: PackageListProps) {
  const { t } = useTranslation('recharge', { keyPrefix: 'rechargeAlerts' });
  const { t: tr, i18n } = useTranslation('recharge', { keyPrefix: 'recharge' });
  if (packages.length === 0) return null;
  return (
    <div className="jc-sms-packages" role="group" aria-label={kind === 'sms' ? t('sms.smsPackages') : t('sms.voicePackages')}>
      <h4 className="jc-drawer-subtitle">
        <Icon icon={kind === 'sms' ? <ChatIcon /> : <PhoneIcon />} size={14} /> {kind === 'sms' ? t('sms.smsPackages') : t('sms.voicePackages')}
      </h4>
      <div className="jc-sms-package-grid">
        {packages.map((item) => {
          const selected = chosen?.packageId === item.packageId;
          const badge = item.discountBadge && discountBadgeText(tr, i18n.language, item.discountBadge);
          const count = kind === 'sms' ? t('sms.messages', { count: item.smsCount }) : t('sms.calls', { count: item.smsCount });
          return (
            <button
              type="button"
              key={item.packageId}
              className={`jc-sms-package${selected ? ' jc-selected' : ''}`}
              aria-pressed={selected}
              data-testid={`${kind}-package-${item.packageId}`}
              onClick={() => onToggle(item)}
            >
              {badge && (
                <Tag intent="danger" className="jc-sms-badge">
                  {badge}
                </Tag>
              )}
              <span className="jc-sms-count">{count}</span>
              <span className="jc-sms-price">{formatMoney(item.price, item.currency)}</span>
              {item.price !== item.packageFee && <s className="jc-sms-listed">{formatMoney(item.packageFee, item.currency)}</s>}
              {selected && <Icon icon={<TickCircleIcon />} intent="primary" className="jc-sms-tick" />}
            </button>
          );
        })}
      </div>
    </div>
  );
}
