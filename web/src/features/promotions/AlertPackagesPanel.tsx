import { Alert, Button, Callout, Dialog, DialogBody, DialogFooter, FileInput, HTMLTable, InputGroup, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import {
  AddIcon, ArrowDownIcon, ArrowUpIcon, DownloadIcon, EditIcon, ErrorIcon, ImportIcon, MobilePhoneIcon, SearchIcon, TrashIcon,
} from '@blueprintjs/icons';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCents } from '@/lib/money';
import { notify } from '@/lib/notify';
import { usePermissions } from '@/lib/permissions';
import { sortError } from '@/lib/serverErrors';
import {
  PROMOTION_LIMITS, deleteAlertPackage, downloadAlertTemplate, importAlertPackages, sortAlertPackages, useAlertPackages,
  usePromotionChange, type AlertKind, type AlertPackageAdmin, type ImportReport,
} from './api/promotions';
import { AlertPackageDialog } from './components/AlertPackageDialog';
import './promotions.css';

const PERMISSION = 'order.servicePackage';

/** The SMS (kind 1) or voice (kind 2) packages tab of /service/package: per country code, at most 5 each, sorted, imported. */
export function AlertPackagesPanel({ kind }: { kind: AlertKind }) {
  const { t, i18n } = useTranslation('promotions');
  const held = usePermissions();
  const can = (action: string) => held.has(`${PERMISSION}:${action}`);
  const [draft, setDraft] = useState('');
  const [countryCode, setCountryCode] = useState('');
  const query = useAlertPackages(countryCode, kind);
  const [editing, setEditing] = useState<AlertPackageAdmin | { countryCode: string } | null>(null);
  const [removing, setRemoving] = useState<AlertPackageAdmin | null>(null);
  const [importing, setImporting] = useState(false);
  const remove = usePromotionChange(deleteAlertPackage);
  const sort = usePromotionChange(({ code, ids }: { code: string; ids: number[] }) => sortAlertPackages(code, kind, ids));
  const rows = query.data;
  const groups = new Map<string, AlertPackageAdmin[]>();
  for (const p of rows ?? []) groups.set(p.countryCode, [...(groups.get(p.countryCode) ?? []), p]);

  const search = (event: FormEvent) => {
    event.preventDefault();
    setCountryCode(draft.trim().replace(/^\+/, ''));
  };
  const move = (list: AlertPackageAdmin[], index: number, by: -1 | 1) => {
    const ids = list.map((p) => p.packageId);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + by, 0, moved!);
    sort.mutate({ code: list[0]!.countryCode, ids });
  };

  return (
    <div className="jc-pr" data-testid={`pr-alerts-${kind}`}>
      <Callout className="jc-pr-note" intent="primary">{t('alert.limit', { count: PROMOTION_LIMITS.perKind })}</Callout>
      <div className="jc-pr-toolbar">
        <form className="jc-pr-search" onSubmit={search}>
          <InputGroup value={draft} maxLength={5} placeholder={t('alert.searchCountry')} leftIcon={<SearchIcon />} inputMode="numeric"
            onChange={(e) => setDraft(e.currentTarget.value)} data-testid="pr-alert-search" />
          <Button type="submit" text={t('search')} />
        </form>
        <span className="jc-pr-spacer" />
        {can('add') && (
          <>
            <Button icon={<ImportIcon />} text={t('alert.import')} onClick={() => setImporting(true)} data-testid="pr-alert-import" />
            <Button intent="primary" icon={<AddIcon />} text={t(`alert.add${kind}`)} data-testid="pr-alert-add"
              onClick={() => setEditing({ countryCode })} />
          </>
        )}
      </div>
      {rows === undefined ? (
        query.isError ? <NonIdealState icon={<ErrorIcon />} title={t('error.load')} /> : <Spinner />
      ) : rows.length === 0 ? (
        <NonIdealState icon={<MobilePhoneIcon />} title={t(`alert.none${kind}`)} />
      ) : (
        [...groups.entries()].map(([code, list]) => (
          <section key={code} className="jc-pr-table-wrap" data-testid="pr-alert-group" data-country={code}>
            <h4 className="jc-pr-group-title">
              +{code} <Tag minimal round intent={list.length >= PROMOTION_LIMITS.perKind ? 'warning' : 'none'}>
                {list.length} / {PROMOTION_LIMITS.perKind}</Tag>
            </h4>
            <HTMLTable className="jc-pr-table jc-pr-cards" striped compact>
              <thead>
                <tr>
                  <th>{t('alertField.packageName')}</th>
                  <th>{t('alertField.smsCount')}</th>
                  <th>{t('alertField.fee')}</th>
                  <th>{t('alertField.discount')}</th>
                  <th>{t('column.status')}</th>
                  <th aria-label={t('column.actions')} />
                </tr>
              </thead>
              <tbody>
                {list.map((p, index) => (
                  <tr key={p.packageId} data-testid="pr-alert-row" data-name={p.defaultName}>
                    <td><strong className="jc-pr-name-cell">{p.packageName}</strong></td>
                    <td data-label={t('alertField.smsCount')}>{p.smsCount}</td>
                    <td data-label={t('alertField.fee')}>{formatCents(p.packageFee, p.currency, i18n.language)}</td>
                    <td data-label={t('alertField.discount')}>{p.discount < 100 ? `${p.discount} %` : '—'}</td>
                    <td data-label={t('column.status')}><Tag round minimal intent={p.status === 1 ? 'success' : 'none'}>{t(p.status === 1 ? 'status.on' : 'status.off')}</Tag></td>
                    <td className="jc-pr-actions">
                      {can('edit') && (
                        <>
                          <Button variant="minimal" icon={<ArrowUpIcon />} disabled={index === 0} title={t('alert.up')}
                            aria-label={t('alert.up')} onClick={() => move(list, index, -1)} data-testid="pr-alert-up" />
                          <Button variant="minimal" icon={<ArrowDownIcon />} disabled={index === list.length - 1}
                            title={t('alert.down')} aria-label={t('alert.down')} onClick={() => move(list, index, 1)} />
                          <Button variant="minimal" icon={<EditIcon />} title={t('edit')} aria-label={t('edit')}
                            onClick={() => setEditing(p)} data-testid="pr-alert-edit" />
                        </>
                      )}
                      {can('delete') && (
                        <Button variant="minimal" intent="danger" icon={<TrashIcon />} title={t('delete')} aria-label={t('delete')}
                          onClick={() => setRemoving(p)} data-testid="pr-alert-delete" />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </section>
        ))
      )}
      <AlertPackageDialog kind={kind} editing={editing} onClose={() => setEditing(null)}
        onSaved={(saved) => notify.success(t('alert.saved', { name: saved.packageName }))} />
      <ImportDialog isOpen={importing} onClose={() => setImporting(false)} />
      <Alert isOpen={removing !== null} intent="danger" icon={<TrashIcon />} cancelButtonText={t('cancel')}
        confirmButtonText={t('delete')} loading={remove.isPending} onCancel={() => setRemoving(null)} canEscapeKeyCancel
        onConfirm={() => removing && remove.mutate(removing.packageId, {
          onSettled: () => setRemoving(null),
          onSuccess: () => notify.success(t('alert.deleted', { name: removing.packageName })),
        })}>
        <p data-testid="pr-alert-confirm">{removing ? t('alert.confirmDelete', { name: removing.packageName }) : ''}</p>
      </Alert>
    </div>
  );
}

function ImportDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useTranslation('promotions');
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const upload = usePromotionChange(importAlertPackages);
  const close = () => {
    setFile(null);
    setReport(null);
    setError(null);
    onClose();
  };
  const choose = (chosen: File | null) => {
    setReport(null);
    setError(null);
    if (chosen && !chosen.name.toLowerCase().endsWith('.xlsx')) {
      setError(t('import.notXlsx'));
      setFile(null);
    } else if (chosen && chosen.size > PROMOTION_LIMITS.sheetBytes) {
      setError(t('import.tooBig'));
      setFile(null);
    } else setFile(chosen);
  };
  const send = () => {
    if (!file) return;
    upload.mutate(file, {
      onSuccess: setReport,
      onError: (failure) => {
        const sorted = sortError(failure, ['file'], {}, t);
        setError(sorted.fields.file ?? sorted.form);
      },
    });
  };
  return (
    <Dialog isOpen={isOpen} onClose={close} title={t('import.title')} className="jc-pr-dialog">
      <DialogBody>
        <p>{t('import.help')}</p>
        <Button variant="minimal" icon={<DownloadIcon />} text={t('import.template')} onClick={() => void downloadAlertTemplate()} />
        <FileInput fill text={file?.name ?? t('import.choose')} buttonText={t('import.browse')}
          inputProps={{ accept: '.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }}
          onInputChange={(e) => choose((e.currentTarget as HTMLInputElement).files?.[0] ?? null)} data-testid="pr-import-file" />
        {error && <Callout intent="danger" className="jc-pr-note" data-testid="pr-import-error">{error}</Callout>}
        {report && (
          <div className="jc-pr-report" data-testid="pr-import-report">
            <Callout intent={report.refused > 0 ? 'warning' : 'success'}>
              {t('import.summary', { added: report.added, refused: report.refused })}
            </Callout>
            <HTMLTable compact striped className="jc-pr-table">
              <thead><tr><th>{t('import.row')}</th><th>{t('alertField.packageName')}</th><th>{t('import.outcome')}</th></tr></thead>
              <tbody>
                {report.rows.map((r) => (
                  <tr key={r.row} className={r.added ? undefined : 'jc-pr-refused'} data-testid="pr-import-row">
                    <td>{r.row}</td>
                    <td>{r.packageName}</td>
                    <td>{r.added ? t('import.added') : `${r.field ? t(`importField.${r.field}`, { defaultValue: r.field }) + ': ' : ''}${r.message ?? ''}`}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
        )}
      </DialogBody>
      <DialogFooter actions={<>
        <Button text={t('close')} onClick={close} />
        <Button intent="primary" icon={<ImportIcon />} text={t('import.send')} disabled={!file} loading={upload.isPending}
          onClick={send} data-testid="pr-import-send" />
      </>} />
    </Dialog>
  );
}
