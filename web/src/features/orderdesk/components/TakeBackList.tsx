import { Callout, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { TakeBack } from '../api/orders';
import { useDeskFormat } from './useDeskFormat';

/**
 * What a refund takes (or would take) from each device: its expiry before → after, its level when
 * it changes, the months, SMS and voice calls taken back, and, as a warning, the SMS and calls
 * already used that could not be.
 */
export function TakeBackList({ takeBacks }: { takeBacks: readonly TakeBack[] }) {
  const { t } = useTranslation('orderdesk');
  const { when, number } = useDeskFormat();
  const counts = (sms: number, voice: number) => [
    ...(sms > 0 ? [t('detail.sms', { count: sms })] : []),
    ...(voice > 0 ? [t('detail.voice', { count: voice })] : []),
  ].join(', ');
  return (
    <ul className="jc-od-takebacks" data-testid="od-takebacks">
      {takeBacks.map((taken) => {
        const expiryMoved = taken.expireTimeBefore !== taken.expireTimeAfter;
        const levelMoved = taken.levelBefore !== taken.levelAfter;
        const taking = counts(taken.smsTaken, taken.voiceTaken);
        const used = counts(taken.smsUsed, taken.voiceUsed);
        const nothing = !expiryMoved && !levelMoved && taken.monthsTaken === 0 && !taking && !used;
        return (
          <li key={taken.deviceId} data-testid="od-takeback">
            <strong>{taken.deviceName ?? `#${taken.deviceId}`}</strong>
            {taken.restored && <> <Tag minimal intent="primary">{t('refund.restored')}</Tag></>}
            {taken.expireTimeBefore !== null && (
              <div data-testid="od-takeback-expiry" data-before={taken.expireTimeBefore} data-after={taken.expireTimeAfter ?? ''}>
                {t('refund.expiry')}: {when(taken.expireTimeBefore)} → {when(taken.expireTimeAfter)}
              </div>
            )}
            {levelMoved && <div>{t('refund.level')}: {taken.levelBefore ?? '—'} → {taken.levelAfter ?? '—'}</div>}
            {taken.monthsTaken > 0 && <div>{t('refund.monthsTaken', { months: number(taken.monthsTaken) })}</div>}
            {taking && <div>{t('refund.countsTaken', { what: taking })}</div>}
            {used && <Callout compact intent="warning" className="jc-od-used" data-testid="od-takeback-used">{t('refund.used', { what: used })}</Callout>}
            {nothing && <div className="jc-od-sub">{t('refund.nothingTaken')}</div>}
          </li>
        );
      })}
    </ul>
  );
}
