import { Card } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { formatCents } from '@/lib/money';
import type { Statistics } from '../api/statistics';

const MONEY = ['paid', 'refunded', 'net'] as const;
const COUNTS = ['orders', 'refunds'] as const;
const DEVICES = ['new', 'renewed', 'expired'] as const;

/** The range at a glance: money paid, paid back and kept; orders and refunds; devices new, renewed, expired. */
export function SummaryCards({ stats }: { stats: Statistics }) {
  const { t, i18n } = useTranslation('rechargestats');
  const count = new Intl.NumberFormat(i18n.language);
  const card = (testId: string, label: string, value: string, tone = '') => (
    <Card key={testId} className={`jc-rs-card ${tone}`} elevation={0}>
      <div className="jc-rs-muted">{label}</div>
      <strong data-testid={testId}>{value}</strong>
    </Card>
  );
  return (
    <div className="jc-rs-summary" data-testid="rs-summary">
      <div className="jc-rs-cards jc-rs-money">
        {MONEY.map((key) => card(`rs-${key}`, t(`figure.${key}`), formatCents(stats.total[key], stats.currency, i18n.language),
          `jc-rs-${key}`))}
      </div>
      <div className="jc-rs-cards jc-rs-counts">
        {COUNTS.map((key) => card(`rs-${key}`, t(`figure.${key}`), count.format(stats.total[key])))}
        {DEVICES.map((key) => card(`rs-devices-${key}`, t(`devices.${key}`), count.format(stats.devices[key] ?? 0)))}
      </div>
    </div>
  );
}
