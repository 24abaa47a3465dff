/**
 * What each device will have once the order is paid, in the paying drawer before payment (issue
 * 14): its service now, how the purchase changes it ("your remaining 396 days of Basic become 197
 * days of Professional, then 1 year + 2 months free follow") and its level and expiry after it.
 * The figures are the server's: the quote (POST /payment/PayOrder/selectBatchQuote) while no
 * order is placed, then the placed order's own promise, which is what the device gets; for an
 * order paid again from My orders, what continuePay says it gives if paid now.
 */
import { Callout, Classes, Spinner } from '@blueprintjs/core';
import { WarningSignIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/http';
import type { DeviceQuote } from '../api/levels';
import { durationText } from '../format';
import '../levelChange.css';

export interface LevelChangeResultProps {
  /** Each device's result: the placed order's promise, else the quote; undefined while asked for. */
  changes: readonly DeviceQuote[] | undefined;
  /** The devices bought for, whose names a batch shows (a device missing here shows its id). */
  devices: readonly { deviceId: number; deviceName: string | null }[];
  /** The quote is being asked for. */
  loading: boolean;
  /** Why the quote was refused (the server says it in the user's language), if it was. */
  error?: unknown;
}

/** See the module comment. */
export function LevelChangeResult({ changes, devices, loading, error }: LevelChangeResultProps) {
  const { t } = useTranslation('recharge', { keyPrefix: 'levelChange' });
  const names = new Map(devices.map((device) => [device.deviceId, device.deviceName]));
  const batch = Math.max(devices.length, changes?.length ?? 0) > 1;
  let body;
  if (error) {
    body = (
      <Callout intent="warning" icon={<WarningSignIcon />} data-testid="level-change-refused">
        {error instanceof ApiError ? error.message : t('failed')}
      </Callout>
    );
  } else if (!changes) {
    body = loading ? <Spinner size={20} /> : null;
  } else {
    body = (
      <ul className="jc-level-change-list">
        {changes.map((change) => (
          <li key={change.deviceId} className="jc-level-change" data-testid="level-change-row" data-device-id={change.deviceId}>
            {batch && <strong className="jc-level-change-device">{names.get(change.deviceId) ?? change.deviceId}</strong>}
            <ChangeLines change={change} />
          </li>
        ))}
      </ul>
    );
  }
  const rounded = changes?.some((change) => change.changeKind === 'converted');
  return (
    <section className="jc-paying-section" aria-labelledby="jc-paying-result" data-testid="level-change">
      <h4 id="jc-paying-result" className="jc-paying-heading">
        {t('title')}
      </h4>
      {body}
      {rounded && <p className={`jc-level-change-note ${Classes.TEXT_MUTED}`}>{t('rounding')}</p>}
    </section>
  );
}

const LIFELONG_DATE = '2099-12-31';

function ChangeLines({ change }: { change: DeviceQuote }) {
  const { t } = useTranslation('recharge', { keyPrefix: 'levelChange' });
  const { t: tr } = useTranslation('recharge', { keyPrefix: 'recharge' });
  const current = change.currentLevelName ?? t('noLevel');
  const days = (count: number) => t('days', { count });
  const duration = durationText(tr, change.timeLength);
  const term = change.presentationMonth > 0 ? t('termWithBonus', { duration, bonus: tr('duration.months', { count: change.presentationMonth }) }) : duration;
  const how = {
    extended: t('extended', { level: change.levelName, term }),
    converted: t('converted', {
      remaining: days(change.remainingDays),
      from: current,
      converted: days(change.convertedDays),
      to: change.levelName,
      term,
    }),
    startsNow: t('startsNow', { term }),
    // Time without a level has no level to name: "remaining time on no level" reads as nonsense.
    fromFree: change.currentLevelName
      ? t('fromFree', { remaining: days(change.remainingDays), from: current, term })
      : t('fromFreeNoLevel', { remaining: days(change.remainingDays), term }),
    lifelong: t('lifelong'),
  }[change.changeKind];
  const now = !change.currentExpiredDate
    ? t('nowNothing')
    : change.currentExpiredDate === LIFELONG_DATE
      ? t('nowLifelong', { level: current })
      : change.currentLevelName
        ? t('now', { level: current, date: change.currentExpiredDate })
        : t('nowNoLevel', { date: change.currentExpiredDate });
  return (
    <>
      <span data-testid="level-change-now">{now}</span>
      <span data-testid="level-change-how">{how}</span>
      <strong data-testid="level-change-after">
        {change.lifelong
          ? t('afterLifelong', { level: change.levelName })
          : t('after', { level: change.levelName, date: change.serviceExpiredDate })}
      </strong>
    </>
  );
}
