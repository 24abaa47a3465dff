import { Tag, type Intent } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';

const STATUS_INTENT: Readonly<Record<number, Intent>> = { 1: 'warning', 2: 'success', 3: 'none' };
const STATE_INTENT: Readonly<Record<number, Intent>> = { 0: 'none', 1: 'success', 2: 'danger' };

/** A purchase's state: awaiting review, approved, rejected. */
export function StatusTag({ status }: { status: number }) {
  const { t } = useTranslation('offline');
  return (
    <Tag round minimal={status !== 2} intent={STATUS_INTENT[status] ?? 'none'} data-testid="ol-status" data-status={status}>
      {t(`status.${status}`)}
    </Tag>
  );
}

/** A device's recharge in a purchase: not recharged (yet), recharged, failed. */
export function StateTag({ state }: { state: number }) {
  const { t } = useTranslation('offline');
  return (
    <Tag minimal intent={STATE_INTENT[state] ?? 'none'} data-testid="ol-state" data-state={state}>
      {t(`state.${state}`)}
    </Tag>
  );
}
