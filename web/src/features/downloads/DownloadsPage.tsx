import { Button, Card, H2, HTMLTable, NonIdealState, ProgressBar, Spinner, Tag, type Intent } from '@blueprintjs/core';
import { DownloadIcon, ErrorIcon, InboxIcon, RefreshIcon, RepeatIcon, TrashIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureText } from '@/app/effects';
import { PagerFooter } from '@/components/PagerFooter';
import { useSigning } from '@/components/SignatureDialog';
import {
  downloadExport, isWorking, useDeleteExport, useExportPage, useRetryExport, type ExportRecord,
} from '@/lib/api/exports';
import { CancelledError } from '@/lib/http';
import { notify } from '@/lib/notify';
import { DEFAULT_PAGE_SIZE } from '@/lib/paging';
import { formatInstant } from '@/lib/units';
import { ExportSignatures } from './ExportSignatures';
import './downloads.css';

const STATUS_INTENT: Record<ExportRecord['status'], Intent> = {
  pending: 'none', running: 'primary', ready: 'success', failed: 'danger',
};

/** Bytes as people read them: 512 B, 12.3 KB, 4.5 MB. */
export function formatSize(bytes: number | null, language: string): string {
  if (bytes === null) return '—';
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 ? 0 : value < 10 ? 1 : 0;
  return `${new Intl.NumberFormat(language, { maximumFractionDigits: digits }).format(value)} ${units[unit]}`;
}

/**
 * The download centre: the caller's exports with their status and progress, kept 7 days, and a
 * readings export's electronic signatures (FDA mode). A failed export is asked for again as a new
 * one, which FDA mode has its author sign: the server's 428 opens the signature dialog.
 */
export default function DownloadsPage() {
  const { t, i18n } = useTranslation(['downloads', 'app']);
  const [start, setStart] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const query = useExportPage(start, pageSize);
  const remove = useDeleteExport();
  const retry = useRetryExport();
  const signing = useSigning();
  const [downloading, setDownloading] = useState<string | null>(null);
  const page = query.data;
  const language = i18n.language;

  const download = async (record: ExportRecord) => {
    setDownloading(record.id);
    try {
      await downloadExport(record);
    } catch {
      // the client has shown why (gone, or not ready)
    } finally {
      setDownloading(null);
    }
  };

  const named = (record: ExportRecord) => (record.kind === 'deviceList' ? t('deviceList') : record.title);

  const tryAgain = async (record: ExportRecord) => {
    const period = record.startTime && record.endTime
      ? `${formatInstant(record.startTime, language, false)} – ${formatInstant(record.endTime, language, false)}` : null;
    try {
      await signing.signIfNeeded(
        { label: [named(record), period, record.format.toUpperCase()].filter(Boolean).join(' · '), intro: t('signIntro'),
          recordType: 'export', meanings: ['authored'], submitText: t('signSubmit') },
        (signature) => retry.mutateAsync(signature ? { id: record.id, signature } : { id: record.id }),
        // as the device's export button: a 428 learnt for the device asks for the signature first
        record.deviceId !== null ? { key: `device:${record.deviceId}` } : {},
      ); // null: the signer cancelled, nothing was asked for
    } catch (error) {
      if (!(error instanceof CancelledError)) notify.error(failureText(error)); // not failed any more, too many in progress, gone
    }
  };

  return (
    <div className="jc-dl" data-testid="downloads-page">
      {signing.dialog}
      <header className="jc-dl-head">
        <H2 className="jc-dl-title">{t('app:route.consumerDownload')}</H2>
        <p>{t('subtitle')}</p>
      </header>
      <Card className="jc-dl-card" elevation={0}>
        <div className="jc-dl-toolbar">
          <Button icon={<RefreshIcon />} variant="minimal" text={t('refresh')} loading={query.isFetching}
            onClick={() => void query.refetch()} />
        </div>
        {page === undefined ? (
          query.isError ? (
            <NonIdealState icon={<ErrorIcon />} title={t('error')} className="jc-dl-state"
              action={<Button icon={<RefreshIcon />} text={t('refresh')} onClick={() => void query.refetch()} />} />
          ) : (
            <Spinner className="jc-dl-state" />
          )
        ) : page.data.length === 0 ? (
          <NonIdealState icon={<InboxIcon />} title={t('empty')} description={t('emptyHint')} className="jc-dl-state" />
        ) : (
          <div className="jc-dl-table-wrap">
            <HTMLTable className="jc-dl-table" striped data-testid="downloads-table">
              <thead>
                <tr>
                  <th>{t('column.file')}</th>
                  <th>{t('column.status')}</th>
                  <th>{t('column.size')}</th>
                  <th>{t('column.created')}</th>
                  <th>{t('column.expires')}</th>
                  <th aria-label={t('column.actions')} />
                </tr>
              </thead>
              <tbody>
                {page.data.map((record) => (
                  <tr key={record.id} data-testid="download-row" data-status={record.status} data-format={record.format}>
                    <td className="jc-dl-file">
                      <strong>{named(record)}</strong>
                      <span className="jc-dl-sub">
                        <Tag minimal>{record.format.toUpperCase()}</Tag>
                        {record.startTime && record.endTime && (
                          <span>{formatInstant(record.startTime, language, false)} – {formatInstant(record.endTime, language, false)}</span>
                        )}
                      </span>
                      <ExportSignatures record={record} />
                    </td>
                    <td className="jc-dl-status" data-label={t('column.status')}>
                      <Tag intent={STATUS_INTENT[record.status]} minimal={record.status !== 'ready'}>{t(`status.${record.status}`)}</Tag>
                      {isWorking(record) && (
                        <ProgressBar value={record.progress / 100} intent="primary" animate stripes
                          className="jc-dl-progress" aria-label={t('progress', { percent: record.progress })} />
                      )}
                      {record.status === 'failed' && record.error && <span className="jc-dl-error">{record.error}</span>}
                    </td>
                    <td data-label={t('column.size')}>{formatSize(record.size, language)}</td>
                    <td data-label={t('column.created')}>{formatInstant(record.createdAt, language, false)}</td>
                    <td data-label={t('column.expires')}>{formatInstant(record.expiresAt, language, false)}</td>
                    <td className="jc-dl-actions">
                      {record.status === 'failed' ? (
                        <Button icon={<RepeatIcon />} intent="primary" variant="outlined" size="small" text={t('retry')}
                          loading={retry.isPending && retry.variables?.id === record.id}
                          onClick={() => void tryAgain(record)} data-testid="download-retry" />
                      ) : (
                        <Button icon={<DownloadIcon />} intent="primary" size="small" text={t('download')}
                          disabled={record.status !== 'ready'} loading={downloading === record.id}
                          onClick={() => void download(record)} data-testid="download-file" />
                      )}
                      <Button icon={<TrashIcon />} variant="minimal" size="small" intent="danger" aria-label={t('delete')}
                        title={t('delete')} loading={remove.isPending && remove.variables === record.id}
                        onClick={() => remove.mutate(record.id)} data-testid="download-delete" />
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
        )}
        {page !== undefined && page.totalCount > 0 && (
          <PagerFooter page={start} pageSize={pageSize} total={page.totalCount} onChange={setStart}
            onPageSizeChange={(size) => { setPageSize(size); setStart(1); }} />
        )}
        <p className="jc-dl-note">{t('kept')}</p>
      </Card>
    </div>
  );
}
