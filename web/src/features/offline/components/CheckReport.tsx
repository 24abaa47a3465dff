import { Callout, HTMLTable, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { RowCheck } from '../api/offline';

export interface Report {
  /** What the report was made of (recordForm.checkKey): it stands for the form while that is unchanged. */
  key: string;
  /** The customer as the server found them; null when the report is insert's refusal. */
  customerName: string | null;
  rows: RowCheck[];
  /** Rows that can be recharged. */
  valid: number;
  /** insert's refusal, in the server's words. */
  refusal?: string;
}

/** Whether the purchase can be recorded as checked: every row can be recharged. */
export const recordable = (report: Report | null): boolean =>
  report !== null && report.rows.length > 0 && report.valid === report.rows.length && !report.refusal;

/** The devices row by row as the server checked them: number, GUID, device, and what is wrong in red. */
export function CheckReport({ report }: { report: Report }) {
  const { t } = useTranslation('offline');
  const problems = report.rows.length - report.valid;
  return (
    <div className="jc-ol-report" data-testid="ol-report" data-problems={problems}>
      {report.refusal ? (
        <Callout intent="danger" compact data-testid="ol-report-summary">{report.refusal}</Callout>
      ) : (
        <Callout intent={problems === 0 ? 'success' : 'danger'} compact data-testid="ol-report-summary">
          {problems === 0
            ? t('check.allValid', { count: report.rows.length, customer: report.customerName ?? '' })
            : t('check.someInvalid', { count: problems, total: report.rows.length })}
        </Callout>
      )}
      <div className="jc-ol-report-rows">
        <HTMLTable compact striped className="jc-ol-report-table jc-phone-cards">
          <thead>
            <tr>
              <th className="jc-ol-num">{t('check.row')}</th>
              <th>GUID</th>
              <th>{t('column.device')}</th>
              <th>{t('check.result')}</th>
            </tr>
          </thead>
          <tbody>
            {report.rows.map((row) => (
              <tr key={`${row.row}-${row.guid}`} data-testid="ol-report-row" data-problem={row.problem ?? ''}>
                <td data-label={t('check.row')} className="jc-ol-num">{row.row}</td>
                <td data-label="GUID" className="jc-ol-mono">{row.guid}</td>
                <td data-label={t('column.device')}>{row.deviceName ?? '—'}</td>
                <td data-label={t('check.result')}>
                  {row.problem === null ? (
                    <Tag minimal intent="success">{t('check.ok')}</Tag>
                  ) : (
                    <span className="jc-ol-problem" data-testid="ol-problem">{row.message ?? t('check.problem')}</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
    </div>
  );
}
