import { Tag, type Intent } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { isCancelled, STATUS } from '@/lib/api/calibrationLab';

const LADDER = [STATUS.submitted, STATUS.paid, STATUS.awaitingDevices, STATUS.received, STATUS.inCalibration, STATUS.returned];

function intentOf(status: number): Intent {
  if (isCancelled(status)) return 'danger';
  if (status === STATUS.returned) return 'success';
  return status >= STATUS.received ? 'primary' : 'none';
}

/** An application's status in words. */
export function StatusTag({ status }: { status: number }) {
  const { t } = useTranslation('calibrationlab');
  return <Tag intent={intentOf(status)} data-testid="order-status" data-status={status}>{t(`status.${status}`)}</Tag>;
}

/** The ladder from submitted to returned, the steps done marked, the current one named for screen readers. */
export function StatusLadder({ status }: { status: number }) {
  const { t } = useTranslation('calibrationlab');
  const cancelled = isCancelled(status);
  return (
    <ol className="jc-cl-ladder" data-testid="status-ladder">
      {LADDER.map((step) => {
        const state = cancelled ? 'off' : step < status ? 'done' : step === status ? 'current' : 'todo';
        return (
          <li key={step} className={`jc-cl-step jc-cl-step--${state}`} aria-current={state === 'current' ? 'step' : undefined}>
            <span className="jc-cl-step-dot">{step}</span>
            <span className="jc-cl-step-name">{t(`status.${step}`)}</span>
          </li>
        );
      })}
      {cancelled && <li className="jc-cl-step jc-cl-step--cancelled" aria-current="step">{t(`status.${status}`)}</li>}
    </ol>
  );
}
