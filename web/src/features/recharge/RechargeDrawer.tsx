/**
 * The device recharge drawer, 1280 wide (spec seed 000 sections 2, 4 and 5): the chosen device's
 * service (or, for several devices of one type, a table of them), the levels of their type as
 * cards with price, badges, button and feature ticks, and the activity's validity. A level opens the
 * paying drawer; a free one does nothing; with an auto-renew agreement in force, the un-agreement
 * drawer (through `onAgreement`) comes first. Devices the caller may only read (an address, a stale
 * choice) are shown with the reason, and nothing can be bought for them.
 */
import {
  Button,
  Callout,
  Card,
  Classes,
  Drawer,
  HTMLTable,
  Icon,
  NonIdealState,
  Spinner,
  Tag,
  Tooltip,
} from '@blueprintjs/core';
import {
  BoxIcon, CalendarIcon, ChatIcon, CreditCardIcon, CrossCircleIcon, EndorsedIcon, ErrorIcon,
  GiftBoxIcon, InfoSignIcon, LockIcon, TickCircleIcon, TickIcon, TimeIcon,
} from '@blueprintjs/icons';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { mayChange } from '@/lib/access';
import { ReadOnlyTag, useReadOnlyReason } from '@/components/ReadOnly';
import { editionConfig } from '@/lib/config';
import { NO_VALUE } from '@/lib/units';
import { LEVEL_NODE_TYPE, useDepositInfos, useLevels, useServiceItems, type DepositInfo, type Level, type ServiceItem } from './api/levels';
import { dialCode, discountBadgeText, durationText, formatMinute, formatMoney } from './format';
import { PayingDrawer } from './PayingDrawer';
import { useSlots } from '@/lib/slots';
import { isLifelong, stockIntent, type Edition } from './values';
import './recharge.css';
import { useAccountPhoto } from '@/lib/api/accountPhoto';

export const RECHARGE_DRAWER_WIDTH = 1280;

export interface RechargeDrawerProps {
  /** Whether the drawer is shown; it starts afresh at each opening (its content goes once closed). */
  isOpen: boolean;
  /** The devices to recharge: one (its service in the header) or several of one type (a batch). */
  deviceIds: readonly number[];
  /** Closes the drawer (Esc, the close button). */
  onClose: () => void;
  /**
   * "Buy SMS/voice" was chosen: open the SMS/voice drawer for these devices. Without it (or when
   * the levels failed to load) the link is hidden.
   */
  onBuyAlerts?: (deviceIds: number[]) => void;
  /**
   * A level was chosen while this device has an auto-renew agreement: open the un-agreement drawer.
   * When it closes, invalidate `rechargeKeys.all` so the drawer reads the device's service again.
   */
  onAgreement?: (deviceId: number) => void;
}

/** The device recharge drawer; see the module comment. */
export function RechargeDrawer({ isOpen, deviceIds, onClose, onBuyAlerts, onAgreement }: RechargeDrawerProps) {
  const { t } = useTranslation('recharge', { keyPrefix: 'recharge' });
  const batch = deviceIds.length > 1;
  return (
    <Drawer
      isOpen={isOpen}
      onClose={onClose}
      size={RECHARGE_DRAWER_WIDTH}
      icon={<CreditCardIcon />}
      title={batch ? t('drawer.batchTitle', { count: deviceIds.length }) : t('drawer.title')}
      className="jc-recharge-drawer"
    >
      {deviceIds.length > 0 && (
        <RechargeContent key={deviceIds.join(',')} deviceIds={deviceIds} onBuyAlerts={onBuyAlerts} onAgreement={onAgreement} />
      )}
    </Drawer>
  );
}

type ContentProps = Pick<RechargeDrawerProps, 'deviceIds' | 'onBuyAlerts' | 'onAgreement'>;

function RechargeContent({ deviceIds, onBuyAlerts, onAgreement }: ContentProps) {
  const { t } = useTranslation('recharge', { keyPrefix: 'recharge' });
  const { edition } = editionConfig();
  const infos = useDepositInfos(deviceIds);
  const devices = infos.map((query) => query.data).filter((device): device is DepositInfo => device !== undefined);
  const loaded = devices.length === deviceIds.length;
  const failed = infos.some((query) => query.isError);
  const first = loaded ? devices[0] : undefined;
  const hasLevels = first?.nodeType === LEVEL_NODE_TYPE;
  const levels = useLevels(first?.deviceId, hasLevels);
  const items = useServiceItems(first?.deviceId, hasLevels);
  // The level stays while the paying drawer slides away; closing it stops its polling at once.
  const [paying, setPaying] = useState<{ isOpen: boolean; level: Level | null }>({ isOpen: false, level: null });
  const batch = deviceIds.length > 1;
  const catalogueFailed = levels.isError || items.isError;
  // The server refuses every order of a device the caller may only read (403, which logs out).
  const readOnly = devices.some((device) => !mayChange(device));
  const readOnlyReason = useReadOnlyReason();

  const choose = (level: Level) => {
    if (level.buttonKind === 'onOrder' || readOnly) return; // a free level cannot be bought
    const bound = devices.find((device) => device.agreementStatus);
    if (bound) {
      onAgreement?.(bound.deviceId);
      return;
    }
    setPaying({ isOpen: true, level });
  };

  if (failed) {
    return <NonIdealState icon={<ErrorIcon />} title={t('drawer.loadFailed')} className="jc-recharge-state" />;
  }
  if (!loaded || !first) {
    return <Spinner size={40} className="jc-recharge-state" />;
  }
  const buyAlerts = onBuyAlerts && !catalogueFailed && !readOnly ? () => onBuyAlerts([...deviceIds]) : undefined;
  return (
    <div className={`${Classes.DRAWER_BODY} jc-recharge-body`} data-testid="recharge-drawer">
      {readOnly && (
        <Callout intent="warning" icon={<LockIcon />} compact className="jc-recharge-read-only" data-testid="recharge-read-only">
          {readOnlyReason}
        </Callout>
      )}
      {batch ? (
        <BatchHeader devices={devices} edition={edition} onBuyAlerts={buyAlerts} />
      ) : (
        <DeviceHeader device={first} edition={edition} onBuyAlerts={buyAlerts} />
      )}
      {!hasLevels ? (
        <div data-testid="recharge-no-levels">
          <NonIdealState icon={<BoxIcon />} title={t('levels.none')} className="jc-recharge-state" />
        </div>
      ) : levels.isError ? (
        <NonIdealState icon={<ErrorIcon />} title={t('levels.loadFailed')} className="jc-recharge-state" />
      ) : levels.data === undefined ? (
        <Spinner size={32} className="jc-recharge-state" />
      ) : levels.data.length === 0 ? (
        <div data-testid="recharge-no-levels">
          <NonIdealState icon={<BoxIcon />} title={t('levels.none')} className="jc-recharge-state" />
        </div>
      ) : (
        <>
          <ActivityValidity level={levels.data[0]!} />
          <div className="jc-level-grid" data-testid="level-cards">
            {levels.data.map((level) => (
              <LevelCard
                key={level.levelId}
                // In a batch a level is "current" only when it is every device's.
                level={batch && level.current ? { ...level, current: devices.every((d) => d.levelId === level.levelId) } : level}
                items={items.data ?? []}
                dataPlan={first.jcIccidStatus === 1 && Boolean(first.simIccid)}
                readOnly={readOnly}
                onChoose={() => choose(level)}
              />
            ))}
          </div>
        </>
      )}
      <PayingDrawer
        isOpen={paying.isOpen}
        level={paying.level}
        devices={devices}
        onClose={() => setPaying((current) => ({ ...current, isOpen: false }))}
      />
    </div>
  );
}

/** An expiry date; "Lifelong" from 2099. */
export function ExpiryText({ date }: { date: string | null }) {
  const { t } = useTranslation('recharge', { keyPrefix: 'recharge' });
  if (!date) return <span className={Classes.TEXT_MUTED}>{NO_VALUE}</span>;
  if (isLifelong({ expiresAt: date })) {
    return (
      <Tag minimal round intent="success" icon={<EndorsedIcon />} data-testid="expiry-lifelong">
        {t('duration.lifelong')}
      </Tag>
    );
  }
  return <span>{date}</span>;
}

/** An SMS or voice count: red at 50 or below, green above. */
export function StockCount({ count, testId }: { count: number; testId?: string }) {
  const intent = stockIntent(count);
  return (
    <span className={`jc-stock jc-stock--${intent}`} data-intent={intent} data-testid={testId}>
      {count}
    </span>
  );
}

interface HeaderProps {
  edition: Edition;
  onBuyAlerts?: () => void;
}

function BuyAlertsLink({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation('recharge', { keyPrefix: 'recharge' });
  return (
    <Button variant="minimal" intent="primary" icon={<ChatIcon />} text={t('header.buyAlerts')} onClick={onClick} data-testid="buy-alerts" />
  );
}

function DeviceHeader({ device, edition, onBuyAlerts }: HeaderProps & { device: DepositInfo }) {
  const { t } = useTranslation('recharge', { keyPrefix: 'recharge' });
  const fields: { key: string; label: string; value: ReactNode }[] = [
    {
      key: 'name',
      label: t('header.name'),
      value: (
        <span className="jc-recharge-name">
          <strong>{device.deviceName}</strong>
          {!mayChange(device) && <ReadOnlyTag />}
        </span>
      ),
    },
    { key: 'type', label: t('header.type'), value: device.deviceTypeName },
    { key: 'guid', label: t('header.guid'), value: <span className="jc-mono">{device.deviceGuid}</span> },
    { key: 'level', label: t('header.level'), value: device.levelName ?? NO_VALUE },
    { key: 'expiry', label: t('header.expiry'), value: <ExpiryText date={device.serviceExpiredDate} /> },
    { key: 'sms', label: t('header.sms'), value: <StockCount count={device.smsCount} testId="sms-count" /> },
  ];
  if (edition === 'domestic') {
    fields.push({ key: 'voice', label: t('header.voice'), value: <StockCount count={device.voiceCount} testId="voice-count" /> });
  }
  return (
    <Card className="jc-recharge-head" elevation={0} data-testid="recharge-device">
      <dl className="jc-recharge-fields">
        {fields.map((field) => (
          <div key={field.key} className="jc-recharge-field" data-testid={`header-${field.key}`}>
            <dt className={Classes.TEXT_MUTED}>{field.label}</dt>
            <dd>{field.value}</dd>
          </div>
        ))}
      </dl>
      <span className="jc-recharge-links">
        {onBuyAlerts && <BuyAlertsLink onClick={onBuyAlerts} />}
        {mayChange(device) && <RedeemLink device={device} />}
      </span>
    </Card>
  );
}

/** Redeem a prepaid recharge card for this device (issue 18). */
function RedeemLink({ device }: { device: DepositInfo }) {
  const { t } = useTranslation('vouchers');
  const [open, setOpen] = useState(false);
  const { RedeemCard: RedeemCardDialog } = useSlots();
  return (
    <>
      <Button variant="minimal" intent="primary" icon={<CreditCardIcon />} text={t('redeem.open')}
        onClick={() => setOpen(true)} data-testid="redeem-card" />
      <RedeemCardDialog isOpen={open} onClose={() => setOpen(false)}
        device={{ deviceId: device.deviceId, deviceName: device.deviceName }} />
    </>
  );
}

function BatchHeader({ devices, edition, onBuyAlerts }: HeaderProps & { devices: DepositInfo[] }) {
  const { t } = useTranslation('recharge', { keyPrefix: 'recharge' });
  const international = edition === 'international';
  return (
    <Card className="jc-recharge-head jc-recharge-head--batch" elevation={0} data-testid="recharge-batch">
      <div className="jc-recharge-batch-title">
        <strong>{t('header.batch', { count: devices.length, type: devices[0]?.deviceTypeName ?? '' })}</strong>
        {onBuyAlerts && <BuyAlertsLink onClick={onBuyAlerts} />}
      </div>
      <div className="jc-recharge-batch-table">
        <HTMLTable compact striped className="jc-recharge-table" data-testid="batch-table">
          <thead>
            <tr>
              <th scope="col">{t('header.name')}</th>
              <th scope="col">{t('header.guid')}</th>
              <th scope="col">{t('header.level')}</th>
              <th scope="col">{t('header.expiry')}</th>
              <th scope="col" className="jc-num">{t('header.sms')}</th>
              <th scope="col" className="jc-num">{t('header.voice')}</th>
              {international && <th scope="col">{t('header.countryCode')}</th>}
            </tr>
          </thead>
          <tbody>
            {devices.map((device) => (
              <tr key={device.deviceId} data-testid="batch-row">
                <td>
                  <span className="jc-recharge-name">
                    {device.deviceName}
                    {!mayChange(device) && <ReadOnlyTag />}
                  </span>
                </td>
                <td className="jc-mono">{device.deviceGuid}</td>
                <td>{device.levelName ?? NO_VALUE}</td>
                <td>
                  <ExpiryText date={device.serviceExpiredDate} />
                </td>
                <td className="jc-num">
                  <StockCount count={device.smsCount} />
                </td>
                <td className="jc-num">
                  <StockCount count={device.voiceCount} />
                </td>
                {international && <td>{dialCode(device.countryCode)}</td>}
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
    </Card>
  );
}

/** The activity's validity, when the first level carries one with a start and an end. */
function ActivityValidity({ level }: { level: Level }) {
  const { t } = useTranslation('recharge', { keyPrefix: 'recharge' });
  if (level.activityId == null || !level.activityStartTime || !level.activityEndTime) return null;
  return (
    <Callout intent="primary" icon={<CalendarIcon />} compact className="jc-recharge-activity" data-testid="activity-validity">
      {t('levels.activity', { start: formatMinute(level.activityStartTime), end: formatMinute(level.activityEndTime) })}
    </Callout>
  );
}

const BUTTON_INTENT = { onOrder: 'none', buyTraffic: 'primary', renew: 'success', buy: 'primary' } as const;

interface LevelCardProps {
  level: Level;
  /** Every service item: the card ticks those the level includes. */
  items: ServiceItem[];
  /** The device's SIM has an active data plan: the listed price includes the data fee. */
  dataPlan: boolean;
  /** The caller may only read a device of the order: the button is disabled. */
  readOnly: boolean;
  onChoose: () => void;
}

function LevelCard({ level, items, dataPlan, readOnly, onChoose }: LevelCardProps) {
  const { t, i18n } = useTranslation('recharge', { keyPrefix: 'recharge' });
  const included = useMemo(() => new Set(level.itemLevelRelList.map((item) => item.itemCode)), [level.itemLevelRelList]);
  const badge = level.discountBadge && discountBadgeText(t, i18n.language, level.discountBadge);
  const listed = level.serviceFee + (dataPlan ? level.dataFee : 0);
  const discounted = !level.free && listed > level.price;
  const term = level.timeLength ?? 12;
  return (
    <Card
      className={`jc-level-card${level.current ? ' is-current' : ''}${level.free ? ' is-free' : ''}`}
      elevation={level.current ? 1 : 0}
      data-testid="level-card"
      data-level={level.levelName}
    >
      <div className="jc-level-badges">
        {badge && (
          <Tag intent="danger" round data-testid="level-discount">
            {badge}
          </Tag>
        )}
        {level.presentationMonth > 0 && (
          <Tag intent="warning" round icon={<GiftBoxIcon />} data-testid="level-bonus">
            {t('levels.bonus', { count: level.presentationMonth })}
          </Tag>
        )}
      </div>
      <div className="jc-level-head">
        {level.levelIcon && <LevelIcon address={level.levelIcon} />}
        <h3 className="jc-level-name">{level.levelName}</h3>
        {level.current && (
          <Tag minimal intent="primary" icon={<TickIcon />} data-testid="level-current">
            {t('levels.current')}
          </Tag>
        )}
      </div>
      <p className={`jc-level-describe ${Classes.TEXT_MUTED}`}>{level.levelDescribe || '\u00a0'}</p>
      <div className="jc-level-price" data-testid="level-price">
        {level.free ? (
          <span className="jc-level-amount jc-level-amount--free">{t('levels.free')}</span>
        ) : (
          <>
            <span className="jc-level-amount">{formatMoney(level.price, level.currency)}</span>
            <span className={Classes.TEXT_MUTED}>
              {' / '}
              {term === 12 ? t('levels.perYear') : durationText(t, term)}
            </span>
            {discounted && (
              <s className="jc-level-original" data-testid="level-original">
                {formatMoney(listed, level.currency)}
              </s>
            )}
          </>
        )}
      </div>
      {level.activityId != null && level.activityEndTime && (
        <span className="jc-level-offer" data-testid="level-offer">
          <Icon icon={<TimeIcon />} size={12} />
          {t('levels.offerUntil', { end: formatMinute(level.activityEndTime) })}
        </span>
      )}
      <Button
        fill
        size="large"
        intent={BUTTON_INTENT[level.buttonKind]}
        variant={level.buttonKind === 'onOrder' ? 'outlined' : 'solid'}
        disabled={level.buttonKind === 'onOrder' || readOnly}
        text={t(`levels.button.${level.buttonKind}`)}
        onClick={onChoose}
        data-testid="level-button"
        data-kind={level.buttonKind}
      />
      <ul className="jc-level-items">
        {items.map((item) => {
          const has = included.has(item.itemCode);
          const { itemTitle: title, itemDetail: detail } = item;
          return (
            <li key={item.itemCode} className={has ? 'is-included' : 'is-excluded'} data-testid="level-item" data-included={has}>
              <Icon icon={has ? <TickCircleIcon /> : <CrossCircleIcon />} size={14} className="jc-level-item-icon" />
              <span className="jc-level-item-text">
                <span>{title}</span>
                {detail && <span className={`jc-level-item-detail ${Classes.TEXT_MUTED}`}>{detail}</span>}
              </span>
              {item.itemSupplement && (
                <Tooltip content={item.itemSupplement} placement="top">
                  <Icon icon={<InfoSignIcon />} size={12} className={Classes.TEXT_MUTED} />
                </Tooltip>
              )}
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

/** The icon an operator gave the level (served with the caller's token, so fetched, not linked). */
function LevelIcon({ address }: { address: string }) {
  const url = useAccountPhoto(address);
  return url ? <img className="jc-level-icon" src={url} alt="" width={24} height={24} data-testid="level-icon" /> : null;
}
