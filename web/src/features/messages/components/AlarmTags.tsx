import { Icon, Tag, Tooltip } from '@blueprintjs/core';
import {
  ArrowDownIcon, ArrowUpIcon, NotificationsSnoozeIcon, PersonIcon, TickIcon, TimeIcon,
  WarningSignIcon,
} from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { ABOVE, BELOW, DEFERRED, UNTREATED, type Alarm } from '../api/alarms';
import { formatInstant } from '@/lib/units';
import { handlingIntent, handlingKey, kindKey, levelIntent, levelOf } from '../values';

/** Above or below a limit, with an arrow pointing the way the value went. */
export function KindTag({ kind }: { /** 1 above the upper limit, 2 below the lower. */ kind: number }) {
  const { t } = useTranslation('messages');
  const icon = kind === ABOVE ? <ArrowUpIcon /> : kind === BELOW ? <ArrowDownIcon /> : <WarningSignIcon />;
  return (
    <Tag minimal round intent={kind === BELOW ? 'primary' : 'danger'} icon={<Icon icon={icon} size={12} />}
      className="jc-msg-kind" data-testid="alarm-kind">
      {t(kindKey(kind))}
    </Tag>
  );
}

/** The graded level reached: 1 warning, 2-3 danger; 0 while nobody has been alerted. */
export function LevelTag({ alarm }: { /** The alarm message. */ alarm: Pick<Alarm, 'level'> }) {
  const { t } = useTranslation('messages');
  const level = levelOf(alarm);
  return (
    <Tooltip content={t('level.hint')} placement="top" compact>
      <Tag
        round
        minimal={level === 0}
        intent={levelIntent(level)}
        className={`jc-msg-level jc-msg-level--${level}`}
        data-testid="alarm-level"
        data-level={level}
      >
        {level === 0 ? t('level.none') : t('level.label', { level })}
      </Tag>
    </Tooltip>
  );
}

/** Untreated, treated, or deferred with the time it is untreated again. */
export function StateTag({ alarm }: { /** The alarm message. */ alarm: Pick<Alarm, 'state' | 'deferredUntil'> }) {
  const { t, i18n } = useTranslation('messages');
  if (alarm.state === DEFERRED) {
    return (
      <span className="jc-msg-deferred" data-testid="alarm-state" data-state={alarm.state}>
        <Tag round minimal intent="primary" icon={<Icon icon={<NotificationsSnoozeIcon />} size={12} />}>
          {t('defer.state')}
        </Tag>
        {alarm.deferredUntil && (
          <time className="jc-msg-deferred-until" dateTime={alarm.deferredUntil} data-testid="alarm-deferred-until">
            {t('defer.until', { time: formatInstant(alarm.deferredUntil, i18n.language, false) })}
          </time>
        )}
      </span>
    );
  }
  const untreated = alarm.state === UNTREATED;
  return (
    <Tag
      round
      minimal={!untreated}
      intent={untreated ? 'warning' : 'success'}
      icon={<Icon icon={untreated ? <TimeIcon /> : <TickIcon />} size={12} />}
      data-testid="alarm-state"
      data-state={alarm.state}
    >
      {t(untreated ? 'state.untreated' : 'state.treated')}
    </Tag>
  );
}

/** How a treated alarm was handled: the outcome, the result text, who and when. */
export function HandledSummary({ alarm }: { /** A treated alarm message. */ alarm: Alarm }) {
  const { t, i18n } = useTranslation('messages');
  return (
    <div className="jc-msg-handled" data-testid="alarm-handled">
      <Tag minimal intent={handlingIntent(alarm.handling)} className="jc-msg-handled-tag">
        {t(handlingKey(alarm.handling))}
      </Tag>
      <span className={`jc-msg-handled-result${alarm.result ? '' : ' is-empty'}`} title={alarm.result ?? undefined}>
        {alarm.result ?? t('handled.noResult')}
      </span>
      {alarm.handledBy && (
        <span className="jc-msg-handled-by" data-testid="alarm-handled-by">
          <Icon icon={<PersonIcon />} size={12} />
          {t('handled.by', { name: alarm.handledBy })}
        </span>
      )}
      {alarm.handledAt && (
        <time className="jc-msg-handled-at" dateTime={alarm.handledAt}>
          {t('handled.at', { time: formatInstant(alarm.handledAt, i18n.language) })}
        </time>
      )}
    </div>
  );
}
