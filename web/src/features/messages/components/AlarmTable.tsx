import { AnchorButton, Button, HTMLTable } from '@blueprintjs/core';
import { TakeActionIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { Permit } from '@/components/Permit';
import { SignatureList } from '@/components/Signatures';
import { mayChange } from '@/lib/access';
import { ReadOnlyReason, ReadOnlyTag } from '@/components/ReadOnly';
import { DEFERRED, MESSAGE_ROUTE, TREATED, type Alarm } from '@/lib/api/alarms';
import { formatInstant } from '@/lib/units';
import { alarmValue, probeKey } from '@/lib/alarmValues';
import { HandledSummary, KindTag, LevelTag, StateTag } from './AlarmTags';
import { DeferralHistory } from './DeferralHistory';

export interface AlarmTableProps {
  /** One page of alarm messages, newest first. */
  alarms: readonly Alarm[];
  /** Opens the handling dialog for an untreated or deferred alarm. */
  onDeal: (alarm: Alarm) => void;
}

/** The alarm messages as a table: device, excursion, values, level, times, state and handling. */
export function AlarmTable({ alarms, onDeal }: AlarmTableProps) {
  const { t } = useTranslation('messages');
  return (
    <div className="jc-msg-table-wrap">
      <HTMLTable className="jc-msg-table" compact striped data-testid="alarm-table">
        <thead>
          <tr>
            <th scope="col">{t('column.device')}</th>
            <th scope="col">{t('column.alarm')}</th>
            <th scope="col" className="jc-msg-num">{t('column.value')}</th>
            <th scope="col" className="jc-msg-num">{t('column.limit')}</th>
            <th scope="col" className="jc-msg-num">{t('column.extreme')}</th>
            <th scope="col">{t('column.level')}</th>
            <th scope="col">{t('column.time')}</th>
            <th scope="col">{t('column.state')}</th>
            <th scope="col">{t('column.handling')}</th>
          </tr>
        </thead>
        <tbody>
          {alarms.map((alarm) => (
            <AlarmRow key={alarm.id} alarm={alarm} onDeal={onDeal} />
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}

function AlarmRow({ alarm, onDeal }: { alarm: Alarm; onDeal: (alarm: Alarm) => void }) {
  const { t, i18n } = useTranslation('messages');
  // A deferred alarm may be handled, or deferred again, before it comes back.
  const handleable = alarm.state !== TREATED;
  const writable = mayChange(alarm);
  const time = (iso: string | null) => formatInstant(iso, i18n.language);
  return (
    <tr
      className={alarm.state === DEFERRED ? 'is-deferred' : handleable ? 'is-untreated' : undefined}
      data-testid="alarm-row"
      data-alarm-id={alarm.id}
      data-state={alarm.state}
      data-device-name={alarm.deviceName}
      data-access={alarm.access}
    >
      <td className="jc-msg-device">
        <span className="jc-msg-device-name">
          {alarm.deviceName}
          {!writable && <ReadOnlyTag />}
        </span>
        <span className="jc-msg-guid">{alarm.deviceGuid}</span>
      </td>
      <td className="jc-msg-alarm">
        <span className="jc-msg-probe">{t(probeKey(alarm.probe))}</span>
        <KindTag kind={alarm.kind} />
      </td>
      <td className="jc-msg-num jc-msg-value" data-testid="alarm-value">{alarmValue(alarm, alarm.value)}</td>
      <td className="jc-msg-num" data-testid="alarm-limit">{alarmValue(alarm, alarm.limitValue)}</td>
      <td className="jc-msg-num jc-msg-extreme" data-testid="alarm-extreme">{alarmValue(alarm, alarm.extremeValue)}</td>
      <td>
        <LevelTag alarm={alarm} />
      </td>
      <td className="jc-msg-times">
        <dl>
          <dt>{t('time.started')}</dt>
          <dd>{time(alarm.startedAt)}</dd>
          <dt>{t('time.raised')}</dt>
          <dd>{time(alarm.raisedAt)}</dd>
          <dt>{t('time.ended')}</dt>
          <dd className={alarm.endedAt ? undefined : 'is-ongoing'}>{alarm.endedAt ? time(alarm.endedAt) : t('time.ongoing')}</dd>
        </dl>
      </td>
      <td>
        <StateTag alarm={alarm} />
      </td>
      <td className="jc-msg-handling">
        {handleable && !writable ? (
          // handling it is the device's owner's or its organization's administrators' to do
          <ReadOnlyReason>
            <AnchorButton size="small" intent="primary" icon={<TakeActionIcon />} disabled text={t('deal.action')} data-testid="alarm-deal" />
          </ReadOnlyReason>
        ) : handleable ? (
          <Permit route={MESSAGE_ROUTE} action="edit" show>
            <Button
              size="small"
              intent="primary"
              icon={<TakeActionIcon />}
              text={t('deal.action')}
              data-testid="alarm-deal"
              onClick={() => onDeal(alarm)}
            />
          </Permit>
        ) : (
          <HandledSummary alarm={alarm} />
        )}
        <SignatureList signatures={alarm.signatures} />
        <DeferralHistory alarm={alarm} />
      </td>
    </tr>
  );
}
