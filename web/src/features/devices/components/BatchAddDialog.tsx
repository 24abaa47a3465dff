import { Button, Callout, Classes, Dialog, DialogBody, DialogFooter, FileInput, HTMLTable, Tag, type Intent } from '@blueprintjs/core';
import { DownloadIcon, ErrorIcon, ImportIcon, WarningSignIcon } from '@blueprintjs/icons';
import { useMutation } from '@tanstack/react-query';
import { useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import './manage.css';
import { saveFile } from '@/lib/saveFile';
import { sortError } from '@/lib/serverErrors';
import {
  downloadSheetTemplate,
  SHEET_EXTENSION,
  SHEET_MAX_BYTES,
  SHEET_MAX_ROWS,
  SHEET_OUTCOMES,
  useBatchInsert,
  useConnection,
  type SheetOutcome,
  type SheetReport,
} from '../api/manage';
import { loginsCsv, outcomeCounts, sheetFileProblem } from '../sheetUpload';
import { CopyButton } from './BrokerLoginDialog';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const OUTCOME_INTENTS: Readonly<Record<SheetOutcome, Intent>> = {
  added: 'success',
  alreadyAdded: 'warning',
  unknownType: 'danger',
  invalid: 'danger',
};
const LOGINS_FILE = 'device-logins.csv';
/** The limits as the user reads them. */
const LIMITS = { kb: SHEET_MAX_BYTES / 1024, rows: SHEET_MAX_ROWS };

interface BatchAddDialogProps {
  isOpen: boolean;
  onClose: () => void;
}

/**
 * Add the devices listed in an XLSX of GUIDs (the template the server writes), then a report of
 * every row; the added devices' broker logins are shown this once, and offered as a CSV.
 */
export function BatchAddDialog({ isOpen, onClose }: BatchAddDialogProps) {
  const { t } = useTranslation('devices');
  const [report, setReport] = useState<SheetReport | null>(null);
  const close = () => {
    setReport(null);
    onClose();
  };
  // Logins shown once are not lost to a stray click or Escape: only Done closes.
  const holdsLogins = (report?.added ?? 0) > 0;
  return (
    <Dialog
      isOpen={isOpen}
      onClose={close}
      title={t('batch.title')}
      icon={<ImportIcon />}
      className="jc-batch-dialog"
      canOutsideClickClose={!holdsLogins}
      canEscapeKeyClose={!holdsLogins}
      isCloseButtonShown={!holdsLogins}
    >
      {isOpen &&
        (report ? <SheetReportView report={report} onDone={close} onAgain={() => setReport(null)} /> : <SheetPicker onClose={close} onReport={setReport} />)}
    </Dialog>
  );
}

function SheetPicker({ onClose, onReport }: { onClose: () => void; onReport: (report: SheetReport) => void }) {
  const { t } = useTranslation('devices');
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const insert = useBatchInsert();
  // A failed download says so in a toast (the client's default).
  const template = useMutation({ mutationFn: downloadSheetTemplate });

  const choose = (chosen: File | undefined) => {
    setProblem(null);
    if (!chosen) return;
    const wrong = sheetFileProblem(chosen);
    setFile(wrong ? null : chosen);
    if (wrong) setProblem(t(`batch.problem.${wrong}`, LIMITS));
  };
  const upload = async () => {
    if (!file) return;
    setProblem(null);
    try {
      onReport(await insert.mutateAsync(file));
    } catch (error) {
      // The server refuses the whole file on `file`, in the user's language (not a sheet, too big, too many rows, empty).
      const sorted = sortError(error, ['file'] as const, {}, t);
      setProblem(sorted.fields.file ?? sorted.form);
    }
  };
  const over = (event: DragEvent, on: boolean) => {
    event.preventDefault();
    setDragging(on);
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void upload();
      }}
      aria-label={t('batch.title')}
      data-testid="batch-add-form"
    >
      <DialogBody>
        <ol className="jc-batch-steps">
          <li>
            {t('batch.stepTemplate')}{' '}
            <Button
              variant="outlined"
              size="small"
              icon={<DownloadIcon />}
              text={t('batch.template')}
              loading={template.isPending}
              onClick={() => template.mutate()}
              data-testid="batch-template"
            />
          </li>
          <li>{t('batch.stepUpload')}</li>
        </ol>
        <div
          className={dragging ? 'jc-batch-drop jc-batch-drop-over' : 'jc-batch-drop'}
          onDragOver={(event) => over(event, true)}
          onDragLeave={(event) => over(event, false)}
          onDrop={(event) => {
            over(event, false);
            choose(event.dataTransfer.files[0]);
          }}
          data-testid="batch-drop"
        >
          <FileInput
            fill
            text={file?.name ?? t('batch.choose')}
            hasSelection={file !== null}
            buttonText={t('batch.browse')}
            disabled={insert.isPending}
            inputProps={{ accept: `${SHEET_EXTENSION},${XLSX_TYPE}`, 'aria-label': t('batch.choose'), ...({ 'data-testid': 'batch-file' } as object) }}
            onInputChange={(event) => {
              const input = event.currentTarget as HTMLInputElement;
              choose(input.files?.[0]);
              input.value = '';
            }}
          />
          <div className={Classes.TEXT_MUTED}>{t('batch.drop')}</div>
          <div className={Classes.TEXT_MUTED}>{t('batch.limits', LIMITS)}</div>
        </div>
        {problem && (
          <Callout intent="danger" icon={<ErrorIcon />} compact role="alert" data-testid="form-error">
            {problem}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('info.cancel')} onClick={onClose} />
            <Button type="submit" intent="primary" icon={<ImportIcon />} text={t('batch.upload')} disabled={!file} loading={insert.isPending} data-testid="batch-upload" />
          </>
        }
      />
    </form>
  );
}

function SheetReportView({ report, onDone, onAgain }: { report: SheetReport; onDone: () => void; onAgain: () => void }) {
  const { t } = useTranslation('devices');
  const counts = outcomeCounts(report.rows);
  const connection = useConnection(report.added > 0);
  const saveLogins = () => {
    if (!connection.data) return;
    const columns = { row: t('batch.column.row'), guid: t('batch.csvGuid'), password: t('login.password'), host: t('login.host'), port: t('login.port') };
    saveFile(new Blob([loginsCsv(report.rows, columns, connection.data)], { type: 'text/csv;charset=utf-8' }), LOGINS_FILE);
  };
  return (
    <>
      <DialogBody>
        {report.added > 0 && (
          <Callout intent="warning" icon={<WarningSignIcon />} compact data-testid="batch-once-warning">
            {t('batch.onlyOnce')}
          </Callout>
        )}
        <div className="jc-batch-counts" data-testid="batch-counts">
          {SHEET_OUTCOMES.map((outcome) => (
            <Tag key={outcome} minimal round intent={counts[outcome] > 0 ? OUTCOME_INTENTS[outcome] : 'none'} data-testid={`batch-count-${outcome}`}>
              {t(`batch.outcome.${outcome}`)}: {counts[outcome]}
            </Tag>
          ))}
        </div>
        <div className="jc-batch-table-wrap">
          <HTMLTable compact striped className="jc-batch-table" data-testid="batch-report">
            <thead>
              <tr>
                <th scope="col">{t('batch.column.row')}</th>
                <th scope="col">{t('add.guid')}</th>
                <th scope="col">{t('batch.column.outcome')}</th>
                <th scope="col">{t('batch.column.details')}</th>
              </tr>
            </thead>
            <tbody>
              {report.rows.map((row) => (
                <tr key={row.row} data-testid="batch-row" data-outcome={row.outcome}>
                  <td data-label={t('batch.column.row')}>{row.row}</td>
                  <td className="jc-mono jc-batch-guid">{row.deviceGuid}</td>
                  <td>
                    <Tag minimal intent={OUTCOME_INTENTS[row.outcome]}>
                      {t(`batch.outcome.${row.outcome}`)}
                    </Tag>
                  </td>
                  <td>
                    {row.credentials ? (
                      <span className="jc-batch-login">
                        <span className={Classes.TEXT_MUTED}>{t('login.password')}</span>{' '}
                        <code className="jc-mono" data-testid="batch-password">
                          {row.credentials.password}
                        </code>
                        <CopyButton text={row.credentials.password} label={t('login.password')} />
                      </span>
                    ) : (
                      row.message
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('batch.again')} onClick={onAgain} data-testid="batch-again" />
            {report.added > 0 && (
              <Button icon={<DownloadIcon />} text={t('batch.saveLogins')} disabled={!connection.data} onClick={saveLogins} data-testid="batch-save-logins" />
            )}
            <Button intent="primary" text={t('login.done')} onClick={onDone} data-testid="batch-done" />
          </>
        }
      />
    </>
  );
}
