import { Tag, type Intent } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';

const INTENT: Record<number, Intent> = { 0: 'none', 1: 'primary', 2: 'success' };

/** A waybill's state: not started, in progress, finished. */
export function StateTag({ state }: { state: number }) {
  const { t } = useTranslation('waybills');
  return (
    <Tag minimal round intent={INTENT[state] ?? 'none'} data-testid="waybill-state" data-state={state}>
      {t(`state.${state}`)}
    </Tag>
  );
}
