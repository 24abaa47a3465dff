import { Button, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { AddIcon, DocumentIcon, EndorsedIcon, ErrorIcon, ImportIcon, TickIcon } from '@blueprintjs/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SignatureList } from '@/components/Signatures';
import { useSigning } from '@/components/SignatureDialog';
import { usePaging } from '@/hooks/usePaging';
import { PagerFooter } from '@/components/PagerFooter';
import {
  downloadReport, fdaKeys, signRecord, useFdaStatus, useReports, type FdaReport, type Meaning, type ReportStatus, type Scope,
} from '@/lib/api/fda';
import { saveFile } from '@/lib/saveFile';
import { formatDays, formatInstant } from '@/lib/units';
import { firstKey, scopeOf, SubjectSelect, type SubjectKey } from '../subjects';
import { ReportDialog } from './ReportDialog';

const STATUS_INTENT: Record<ReportStatus, 'none' | 'primary' | 'success'> = { draft: 'none', reviewed: 'primary', approved: 'success' };

/**
 * Periodic reports: a PDF of a device's data for a period (statistics, the chart, the readings and
 * each signature's manifestation), reviewed by one person and approved by another, each signing.
 */
export function ReportsTab() {
  const { t } = useTranslation('fda');
  const subjects = useFdaStatus().data?.subjects;
  const [chosen, setChosen] = useState<SubjectKey | null>(null);
  const [creating, setCreating] = useState(false);
  if (subjects === undefined) return <Spinner size={30} />;
  const key = chosen ?? firstKey(subjects);
  return (
    <div className="jc-fda-panel" data-testid="fda-reports">
      <p className="jc-fda-intro">{t('reports.intro')}</p>
      <div className="jc-fda-toolbar">
        <SubjectSelect subjects={subjects} value={key} onChange={setChosen} />
        <div className="jc-fda-spacer" />
        <Button intent="primary" icon={<AddIcon />} text={t('reports.add')} onClick={() => setCreating(true)} data-testid="report-add" />
      </div>
      <ReportList key={key} scope={scopeOf(key)} />
      <ReportDialog isOpen={creating} onClose={() => setCreating(false)} />
    </div>
  );
}

function ReportList({ scope }: { scope: Scope }) {
  const { t, i18n } = useTranslation('fda');
  const queryClient = useQueryClient();
  const signing = useSigning();
  const paging = usePaging();
  const query = useReports(scope, paging.start, paging.pageSize);
  const page = query.data;
  const [downloading, setDownloading] = useState<number | null>(null);

  const period = (report: FdaReport) => formatDays(report.startTime, report.endTime, i18n.language);
  const sign = async (report: FdaReport, meaning: Meaning) => {
    const signed = await signing.sign(
      { title: t(meaning === 'reviewed' ? 'reports.reviewTitle' : 'reports.approveTitle'), label: `${report.title} · ${period(report)}`,
        intro: t('reports.signIntro'), recordType: 'report', meanings: [meaning], submitText: t(meaning === 'reviewed' ? 'reports.review' : 'reports.approve') },
      (signature) => signRecord('report', String(report.id), signature),
    );
    if (signed) await queryClient.invalidateQueries({ queryKey: fdaKeys.all });
  };
  const download = async (report: FdaReport) => {
    setDownloading(report.id);
    try {
      const file = await downloadReport(report.id);
      saveFile(file.blob, file.fileName ?? `report-${report.id}.pdf`);
    } catch {
      // the client has said why
    } finally {
      setDownloading(null);
    }
  };

  if (page === undefined) return query.isError ? <NonIdealState icon={<ErrorIcon />} title={t('loadFailed')} /> : <Spinner size={30} />;
  if (page.data.length === 0) {
    return (
      <div data-testid="reports-empty">
        <NonIdealState icon={<DocumentIcon />} title={t('reports.empty')} description={t('reports.emptyHint')} />
      </div>
    );
  }
  return (
    <>
      {signing.dialog}
      <div className="jc-fda-table-wrap">
        <HTMLTable compact striped className={`jc-fda-table jc-fda-cards${query.isPlaceholderData ? ' jc-stale' : ''}`} data-testid="report-table">
          <thead>
            <tr>
              <th scope="col">{t('reports.column.report')}</th>
              <th scope="col">{t('reports.column.period')}</th>
              <th scope="col">{t('reports.column.status')}</th>
              <th scope="col">{t('reports.column.signatures')}</th>
              <th scope="col"><span className="jc-fda-muted">{t('actions')}</span></th>
            </tr>
          </thead>
          <tbody>
            {page.data.map((report) => (
              <tr key={report.id} data-testid="report-row" data-report-id={report.id} data-status={report.status}>
                <td className="jc-fda-wrap jc-fda-name-cell jc-fda-lead">
                  <div className="jc-fda-strong">{report.title}</div>
                  <div>{report.deviceName}</div>
                  <div className="jc-fda-muted">{t('reports.created', { name: report.createdBy, time: formatInstant(report.createdAt, i18n.language, false) })}</div>
                </td>
                <td className="jc-fda-time" data-label={t('reports.column.period')}>{period(report)}</td>
                <td data-label={t('reports.column.status')}>
                  <Tag round minimal={report.status === 'draft'} intent={STATUS_INTENT[report.status]} data-testid="report-status">
                    {t(`reports.status.${report.status}`)}
                  </Tag>
                </td>
                <td className="jc-fda-signatures" data-label={t('reports.column.signatures')}>
                  {report.signatures.length > 0 ? <SignatureList signatures={report.signatures} /> : <span className="jc-fda-muted">{t('reports.unsigned')}</span>}
                </td>
                <td className="jc-fda-actions">
                  {report.status === 'draft' && (
                    <Button size="small" icon={<EndorsedIcon />} text={t('reports.review')} onClick={() => void sign(report, 'reviewed')}
                      data-testid="report-review" />
                  )}
                  {report.status === 'reviewed' && (
                    <Button size="small" intent="primary" icon={<TickIcon />} text={t('reports.approve')}
                      onClick={() => void sign(report, 'approved')} data-testid="report-approve" />
                  )}
                  <Button size="small" variant="minimal" icon={<ImportIcon />} text={t('reports.pdf')} loading={downloading === report.id}
                    onClick={() => void download(report)} data-testid="report-download" />
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
      <PagerFooter {...paging.footer(page.totalCount)} disabled={query.isFetching} />
    </>
  );
}
