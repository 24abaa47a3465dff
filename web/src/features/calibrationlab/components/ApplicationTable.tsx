import { HTMLTable, NonIdealState } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { LabApplication } from '@/lib/api/calibrationLab';
import { formatCents } from '@/lib/money';
import { formatInstant, NO_VALUE } from '@/lib/units';
import { StatusTag } from './Status';

export interface ApplicationTableProps {
  rows: LabApplication[];
  /** The {role} of the page's path, kept on the detail's link. */
  role: string;
  /** What the last column offers for a row (the quick orders' "complete"). */
  action?: (row: LabApplication) => ReactNode;
}

/** Applications as a table on a desktop and as cards on a phone (jc-phone-cards). */
export function ApplicationTable({ rows, role, action }: ApplicationTableProps) {
  const { t, i18n } = useTranslation('calibrationlab');
  if (rows.length === 0) return <NonIdealState title={t('list.empty')} />;
  return (
    <HTMLTable className="jc-phone-cards jc-cl-table" interactive striped>
      <thead>
        <tr>
          <th>{t('field.number')}</th>
          <th>{t('field.customer')}</th>
          <th>{t('field.devices')}</th>
          <th>{t('field.total')}</th>
          <th>{t('field.status')}</th>
          <th>{t('field.created')}</th>
          <th aria-label={t('list.actions')} />
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.applicationNumber} data-testid="order-row" data-number={row.applicationNumber}>
            <td data-label={t('field.number')}>
              <Link to={`/${role}/order/detail/${row.applicationId}`} data-testid="order-open">{row.applicationNumber}</Link>
            </td>
            <td data-label={t('field.customer')}>{row.details?.customerName ?? row.details?.contactName ?? NO_VALUE}</td>
            <td data-label={t('field.devices')}>{row.devices.length}</td>
            <td data-label={t('field.total')}>{formatCents(row.totalFee, row.currency, i18n.language)}</td>
            <td data-label={t('field.status')}><StatusTag status={row.status} /></td>
            <td data-label={t('field.created')}>{formatInstant(row.createdAt, i18n.language, false)}</td>
            <td>{action?.(row)}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
