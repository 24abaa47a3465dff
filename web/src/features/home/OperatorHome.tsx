import { Classes, H2, Icon, Spinner } from '@blueprintjs/core';
import { DollarIcon, FeedIcon, LayersIcon, PeopleIcon, ShoppingCartIcon, WarningSignIcon } from '@blueprintjs/icons';
import type { JSX, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccountInfo } from '@/lib/api/accountInfo';
import { editionConfig } from '@/lib/config';
import { formatCents } from '@/lib/money';
import { useOperatorHomeCounts, type OperatorHomeCounts } from './api/operatorHomeCounts';

interface Figure {
  key: keyof Omit<OperatorHomeCounts, 'revenueToday'>;
  icon: JSX.Element;
  tone: 'primary' | 'success' | 'danger' | 'warning';
}

const FIGURES: readonly Figure[] = [
  { key: 'customers', icon: <PeopleIcon />, tone: 'primary' },
  { key: 'devices', icon: <LayersIcon />, tone: 'primary' },
  { key: 'online', icon: <FeedIcon />, tone: 'success' },
  { key: 'alarm', icon: <WarningSignIcon />, tone: 'danger' },
  { key: 'ordersToday', icon: <ShoppingCartIcon />, tone: 'warning' },
  { key: 'paidOrdersToday', icon: <ShoppingCartIcon />, tone: 'success' },
];

/** The back office's landing page: how every customer's fleet and today's sales stand. */
export function OperatorHome({ info }: { info: AccountInfo }) {
  const { t, i18n } = useTranslation('home');
  const counts = useOperatorHomeCounts();
  const name = info.baseAccount.realName?.trim() || info.baseAccount.userName;
  const value = (figure: number | undefined): ReactNode => {
    if (figure !== undefined) return new Intl.NumberFormat(i18n.language).format(figure);
    return counts.isError ? '—' : <Spinner size={18} />;
  };
  // Revenue is the sum of what was charged, so it is shown exactly, one figure per currency (an
  // operator may see yuan and dollars side by side); none yet today is nought in the edition's.
  const revenue = counts.data?.revenueToday;
  const revenueRows = revenue?.length ? revenue : [{ currency: editionConfig().currency, payFee: 0 }];
  return (
    <div className="jc-home" data-testid="operator-home">
      <header className="jc-home-hero">
        <div>
          <H2 className="jc-home-greeting">{t('operator.title', { name })}</H2>
          <p className={Classes.TEXT_MUTED}>{t('operator.subtitle')}</p>
        </div>
      </header>
      <ul className="jc-home-counts jc-operator-figures" data-testid="operator-counts">
        {FIGURES.map((figure) => (
          <li key={figure.key}>
            <div className={`jc-home-count jc-home-count-${figure.tone}`} role="group" data-testid={`operator-${figure.key}`}
              aria-label={`${t(`operator.${figure.key}`)}: ${counts.data?.[figure.key] ?? ''}`}>
              <span className="jc-home-count-icon"><Icon icon={figure.icon} size={16} /></span>
              <span className="jc-home-count-value">{value(counts.data?.[figure.key])}</span>
              <span className="jc-home-count-label">{t(`operator.${figure.key}`)}</span>
            </div>
          </li>
        ))}
        <li className="jc-operator-revenue">
          <div className="jc-home-count jc-home-count-success" role="group" data-testid="operator-revenue">
            <span className="jc-home-count-icon"><Icon icon={<DollarIcon />} size={16} /></span>
            <span className="jc-home-count-value">
              {revenue === undefined ? value(undefined) : revenueRows.map((row) => (
                <span key={row.currency} className="jc-operator-money">{formatCents(row.payFee, row.currency, i18n.language)}</span>
              ))}
            </span>
            <span className="jc-home-count-label">{t('operator.revenueToday')}</span>
          </div>
        </li>
      </ul>
    </div>
  );
}
