import { Tag, type Intent } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';

const STATUS_INTENT: Readonly<Record<number, Intent>> = { 1: 'warning', 2: 'success', 3: 'primary', 4: 'none', 5: 'primary' };

/** An order's state: unpaid, paid, partially refunded, refunded, closed. */
export function StatusTag({ status }: { status: number }) {
  const { t } = useTranslation('orderdesk');
  return (
    <Tag round minimal={status !== 2} intent={STATUS_INTENT[status] ?? 'none'} data-testid="od-status" data-status={status}>
      {t(`payStatus.${status}`)}
    </Tag>
  );
}
