import { Button, Dialog, DialogBody, DialogFooter, NonIdealState, Spinner } from '@blueprintjs/core';
import { ErrorIcon, HistoryIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Pager } from '@/components/Pager';
import { formatInstant } from '@/lib/units';
import { DEFERRAL_PAGE_SIZE, useDeferrals, type Alarm } from '../api/alarms';
import { delayText } from '../values';

export interface DeferralHistoryProps {
  /** The alarm whose deferrals are listed; nothing shows while it has none. */
  alarm: Pick<Alarm, 'id' | 'deferralCount' | 'deviceName'>;
}

/** "Deferred 2 times", opening the alarm's deferrals: who deferred it, when, until when and why. */
export function DeferralHistory({ alarm }: DeferralHistoryProps) {
  const { t } = useTranslation('messages');
  const [open, setOpen] = useState(false);
  if (alarm.deferralCount === 0) return null;
  return (
    <>
      <Button
        variant="minimal"
        size="small"
        icon={<HistoryIcon />}
        className="jc-msg-deferrals"
        text={t('defer.history', { count: alarm.deferralCount })}
        onClick={() => setOpen(true)}
        data-testid="alarm-deferrals"
      />
      <Dialog isOpen={open} onClose={() => setOpen(false)} title={`${t('defer.historyTitle')} · ${alarm.deviceName}`} icon={<HistoryIcon />}>
        <DialogBody>{open && <DeferralList id={alarm.id} />}</DialogBody>
        <DialogFooter actions={<Button text={t('defer.close')} onClick={() => setOpen(false)} />} />
      </Dialog>
    </>
  );
}

function DeferralList({ id }: { id: number }) {
  const { t, i18n } = useTranslation('messages');
  const [start, setStart] = useState(1);
  const query = useDeferrals(id, start);
  const page = query.data;
  if (!page) {
    return query.isError ? (
      <NonIdealState icon={<ErrorIcon />} title={t('defer.failed')} />
    ) : (
      <Spinner size={24} />
    );
  }
  if (page.totalCount === 0) return <NonIdealState icon={<HistoryIcon />} description={t('defer.empty')} />;
  const time = (iso: string, seconds = true) => formatInstant(iso, i18n.language, seconds);
  return (
    <div data-testid="deferral-history">
      <ol className="jc-msg-deferral-list">
        {page.data.map((deferral) => (
          <li key={deferral.deferredAt + deferral.deferredUntil} className="jc-msg-deferral" data-testid="deferral">
            <span className="jc-msg-deferral-what">
              {t('defer.entry', { delay: delayText(t, deferral.minutes), until: time(deferral.deferredUntil, false) })}
            </span>
            <span className={`jc-msg-handled-result${deferral.result ? '' : ' is-empty'}`}>
              {deferral.result ?? t('defer.noResult')}
            </span>
            <span className="jc-msg-deferral-who">
              {deferral.deferredBy && <span>{t('defer.by', { name: deferral.deferredBy })}</span>}
              <time dateTime={deferral.deferredAt}>{time(deferral.deferredAt)}</time>
            </span>
          </li>
        ))}
      </ol>
      {page.totalCount > DEFERRAL_PAGE_SIZE && (
        <Pager page={start} pageSize={DEFERRAL_PAGE_SIZE} total={page.totalCount} onChange={setStart} disabled={query.isFetching} />
      )}
    </div>
  );
}
