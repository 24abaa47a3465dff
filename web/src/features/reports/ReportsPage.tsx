import {
  Alert, Button, Callout, Card, Dialog, DialogBody, DialogFooter, FormGroup, H2, HTMLSelect, HTMLTable,
  InputGroup, NonIdealState, Spinner, Switch, Tag, TextArea, type Intent,
} from '@blueprintjs/core';
import { AddIcon, EditIcon, ErrorIcon, HistoryIcon, InboxIcon, TrashIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { PagerFooter } from '@/components/PagerFooter';
import { EXPORT_FORMATS } from '@/lib/api/exports';
import { usePaging } from '@/hooks/usePaging';
import { formatInstant } from '@/lib/units';
import {
  FREQUENCIES, REPORT_LIMITS, useDeleteSchedule, useRuns, useSaveSchedule, useSchedules,
  type RunRecord, type ScheduleFields, type ScheduleRecord,
} from './api/reports';
import { DevicePicker } from '@/components/DevicePicker';
import './reports.css';

const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6] as const;
const OUTCOME_INTENT: Record<RunRecord['outcome'], Intent> = {
  running: 'primary', ok: 'success', partial: 'warning', failed: 'danger',
};
// A simple address check; the server's is the rule (src/core/accounts/rules.py).
const ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Addresses as typed, one a line or separated by commas or semicolons. */
export function splitRecipients(text: string): string[] {
  return text.split(/[\s,;]+/).map((a) => a.trim()).filter(Boolean);
}

/** The server's rules (src/core/reports), checked as the user types, in their language. */
export function scheduleFormSchema(t: TFunction) {
  return z.object({
    name: z.string().trim().min(1, t('error.required'))
      .refine((v) => [...v].length <= REPORT_LIMITS.name, t('error.tooLong', { max: REPORT_LIMITS.name })),
    frequency: z.enum(FREQUENCIES),
    weekday: z.number().int().min(0).max(6),
    monthDay: z.number().int().min(1, t('error.monthDay')).max(REPORT_LIMITS.monthDay, t('error.monthDay')),
    deviceIds: z.array(z.number()).min(1, t('error.devices')).max(REPORT_LIMITS.devices, t('error.tooManyDevices',
      { max: REPORT_LIMITS.devices })),
    format: z.enum(EXPORT_FORMATS),
    recipients: z.string().superRefine((text, ctx) => {
      const list = splitRecipients(text);
      const problem = list.length === 0 ? t('error.recipients')
        : list.length > REPORT_LIMITS.recipients ? t('error.tooManyRecipients', { max: REPORT_LIMITS.recipients })
          : list.find((a) => a.length > REPORT_LIMITS.email || !ADDRESS.test(a)) ? t('error.address')
            : new Set(list.map((a) => a.toLowerCase())).size !== list.length ? t('error.duplicate') : null;
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
    enabled: z.boolean(),
  });
}
type ScheduleForm = z.infer<ReturnType<typeof scheduleFormSchema>>;

function formOf(record: ScheduleRecord | null): ScheduleForm {
  return {
    name: record?.name ?? '', frequency: record?.frequency ?? 'daily', weekday: record?.weekday ?? 0,
    monthDay: record?.monthDay ?? 1, deviceIds: record?.deviceIds ?? [], format: record?.format ?? 'xlsx',
    recipients: record?.recipients.join('\n') ?? '', enabled: record?.enabled ?? true,
  };
}

function fieldsOf(values: ScheduleForm): ScheduleFields {
  return {
    name: values.name.trim(), frequency: values.frequency, format: values.format, enabled: values.enabled,
    weekday: values.frequency === 'weekly' ? values.weekday : null,
    monthDay: values.frequency === 'monthly' ? values.monthDay : null,
    deviceIds: values.deviceIds, recipients: splitRecipients(values.recipients),
  };
}

/** When a schedule sends, in words: "Daily", "Weekly on Monday", "Monthly on day 5". */
function whenText(t: TFunction, record: Pick<ScheduleRecord, 'frequency' | 'weekday' | 'monthDay'>): string {
  if (record.frequency === 'weekly') return t('when.weekly', { day: t(`weekday.${record.weekday ?? 0}`) });
  if (record.frequency === 'monthly') return t('when.monthly', { day: record.monthDay ?? 1 });
  return t('when.daily');
}

/** Scheduled reports: the account's schedules, made, changed, switched on and off, deleted, and their runs. */
export default function ReportsPage() {
  const { t, i18n } = useTranslation(['reports', 'app']);
  const paging = usePaging();
  const query = useSchedules(paging.start, paging.pageSize);
  const save = useSaveSchedule();
  const remove = useDeleteSchedule();
  const [editing, setEditing] = useState<ScheduleRecord | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ScheduleRecord | null>(null);
  const [history, setHistory] = useState<ScheduleRecord | null>(null);
  const page = query.data;

  const toggle = (record: ScheduleRecord) => {
    const { id, createdAt: _created, devices: _named, ...fields } = record;
    save.mutate({ id, fields: { ...fields, enabled: !record.enabled } });
  };

  return (
    <div className="jc-rp" data-testid="reports-page">
      <header className="jc-rp-head">
        <H2>{t('app:route.scheduledBackup')}</H2>
        <p>{t('subtitle')}</p>
      </header>
      <Card className="jc-rp-card" elevation={0}>
        <div className="jc-rp-toolbar">
          <Button intent="primary" icon={<AddIcon />} text={t('add')} onClick={() => setEditing('new')}
            data-testid="report-add" />
        </div>
        {page === undefined ? (
          query.isError ? <NonIdealState icon={<ErrorIcon />} title={t('error.load')} /> : <Spinner />
        ) : page.data.length === 0 ? (
          <NonIdealState icon={<InboxIcon />} title={t('empty')} description={t('emptyHint')} />
        ) : (
          <div className="jc-rp-table-wrap">
            <HTMLTable className="jc-rp-table" striped data-testid="reports-table">
              <thead>
                <tr>
                  <th>{t('column.name')}</th>
                  <th>{t('column.when')}</th>
                  <th>{t('column.devices')}</th>
                  <th>{t('column.recipients')}</th>
                  <th>{t('column.enabled')}</th>
                  <th aria-label={t('column.actions')} />
                </tr>
              </thead>
              <tbody>
                {page.data.map((record) => (
                  <tr key={record.id} data-testid="report-row">
                    <td><strong>{record.name}</strong> <Tag minimal>{record.format.toUpperCase()}</Tag></td>
                    <td data-label={t('column.when')}>{whenText(t, record)}</td>
                    <td data-label={t('column.devices')}>{record.deviceIds.length}</td>
                    <td data-label={t('column.recipients')} className="jc-rp-recipients">{record.recipients.join(', ')}</td>
                    <td data-label={t('column.enabled')}>
                      <Switch checked={record.enabled} aria-label={t('column.enabled')} onChange={() => toggle(record)}
                        data-testid="report-enabled" />
                    </td>
                    <td className="jc-rp-actions">
                      <Button variant="minimal" icon={<HistoryIcon />} title={t('runs')} aria-label={t('runs')}
                        onClick={() => setHistory(record)} data-testid="report-runs" />
                      <Button variant="minimal" icon={<EditIcon />} title={t('edit')} aria-label={t('edit')}
                        onClick={() => setEditing(record)} data-testid="report-edit" />
                      <Button variant="minimal" intent="danger" icon={<TrashIcon />} title={t('delete')}
                        aria-label={t('delete')} onClick={() => setDeleting(record)} data-testid="report-delete" />
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
        )}
        {page !== undefined && page.totalCount > 0 && (
          <PagerFooter {...paging.footer(page.totalCount)} />
        )}
      </Card>
      <Dialog isOpen={editing !== null} onClose={() => setEditing(null)} className="jc-rp-dialog"
        title={t(editing === 'new' ? 'addTitle' : 'editTitle')}>
        {editing !== null && <ScheduleDialogForm record={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      </Dialog>
      <Alert isOpen={deleting !== null} intent="danger" icon={<TrashIcon />} cancelButtonText={t('cancel')}
        confirmButtonText={t('delete')} loading={remove.isPending} onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSettled: () => setDeleting(null) })}>
        <p data-testid="report-delete-confirm">{t('deleteConfirm', { name: deleting?.name ?? '' })}</p>
      </Alert>
      <Dialog isOpen={history !== null} onClose={() => setHistory(null)} className="jc-rp-dialog"
        title={t('runsTitle', { name: history?.name ?? '' })}>
        <DialogBody>{history !== null && <RunList scheduleId={history.id} language={i18n.language} />}</DialogBody>
      </Dialog>
    </div>
  );
}

function RunList({ scheduleId, language }: { scheduleId: number; language: string }) {
  const { t } = useTranslation('reports');
  const query = useRuns(scheduleId);
  if (query.data === undefined) return query.isError ? <Callout intent="danger">{t('error.load')}</Callout> : <Spinner />;
  if (query.data.data.length === 0) return <NonIdealState icon={<HistoryIcon />} title={t('noRuns')} />;
  return (
    <ol className="jc-rp-runs" data-testid="report-run-list">
      {query.data.data.map((run) => (
        <li key={run.id} data-testid="report-run">
          <div>
            <Tag intent={OUTCOME_INTENT[run.outcome]}>{t(`outcome.${run.outcome}`)}</Tag>{' '}
            {formatInstant(run.periodStart, language, false)} – {formatInstant(run.periodEnd, language, false)}
          </div>
          <ul>
            {run.files.map((file) => (
              <li key={file.deviceId}>{file.deviceName || `#${file.deviceId}`}: {file.fileName ?? file.error}</li>
            ))}
          </ul>
          {run.sentTo.length > 0 && <div className="jc-rp-sub">{t('sentTo', { addresses: run.sentTo.join(', ') })}</div>}
          {run.error && <div className="jc-rp-error">{run.error}</div>}
        </li>
      ))}
    </ol>
  );
}

function ScheduleDialogForm({ record, onDone }: { record: ScheduleRecord | null; onDone: () => void }) {
  const { t } = useTranslation('reports');
  const schema = useMemo(() => scheduleFormSchema(t), [t]);
  const save = useSaveSchedule();
  const knownNames = useMemo(() => Object.fromEntries((record?.devices ?? []).map((d) => [d.deviceId, d.deviceName])), [record]);
  const [formError, setFormError] = useState<string | null>(null);
  const { control, handleSubmit, watch } = useForm<ScheduleForm>({
    resolver: zodResolver(schema), defaultValues: formOf(record), mode: 'onChange',
  });
  const frequency = watch('frequency');
  const submit = handleSubmit((values) => {
    setFormError(null);
    save.mutate({ fields: fieldsOf(values), id: record?.id }, {
      onSuccess: onDone,
      onError: (error) => setFormError(error instanceof Error ? error.message : t('error.save')),
    });
  });
  return (
    <form onSubmit={(e) => void submit(e)} data-testid="report-form">
      <DialogBody>
        <Controller name="name" control={control} render={({ field: { ref, ...field }, fieldState }) => (
          <FormGroup label={t('field.name')} labelFor="report-name" intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message}>
            <InputGroup {...field} id="report-name" inputRef={ref} maxLength={REPORT_LIMITS.name} data-testid="report-name" />
          </FormGroup>
        )} />
        <div className="jc-rp-row">
          <Controller name="frequency" control={control} render={({ field }) => (
            <FormGroup label={t('field.frequency')} labelFor="report-frequency">
              <HTMLSelect {...field} id="report-frequency" fill data-testid="report-frequency"
                options={FREQUENCIES.map((f) => ({ value: f, label: t(`frequency.${f}`) }))} />
            </FormGroup>
          )} />
          {frequency === 'weekly' && (
            <Controller name="weekday" control={control} render={({ field }) => (
              <FormGroup label={t('field.weekday')} labelFor="report-weekday">
                <HTMLSelect id="report-weekday" fill value={field.value} onChange={(e) => field.onChange(Number(e.target.value))}
                  options={WEEKDAYS.map((d) => ({ value: d, label: t(`weekday.${d}`) }))} data-testid="report-weekday" />
              </FormGroup>
            )} />
          )}
          {frequency === 'monthly' && (
            <Controller name="monthDay" control={control} render={({ field, fieldState }) => (
              <FormGroup label={t('field.monthDay')} labelFor="report-month-day" intent={fieldState.error ? 'danger' : 'none'}
                helperText={fieldState.error?.message}>
                <HTMLSelect id="report-month-day" fill value={field.value} onChange={(e) => field.onChange(Number(e.target.value))}
                  options={Array.from({ length: REPORT_LIMITS.monthDay }, (_, i) => ({ value: i + 1, label: String(i + 1) }))}
                  data-testid="report-month-day" />
              </FormGroup>
            )} />
          )}
          <Controller name="format" control={control} render={({ field }) => (
            <FormGroup label={t('field.format')} labelFor="report-format">
              <HTMLSelect {...field} id="report-format" fill data-testid="report-format"
                options={EXPORT_FORMATS.map((f) => ({ value: f, label: f.toUpperCase() }))} />
            </FormGroup>
          )} />
        </div>
        <p className="jc-rp-sub">{t(`period.${frequency}`)}</p>
        <Controller name="deviceIds" control={control} render={({ field, fieldState }) => (
          <FormGroup label={t('field.devices')} intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message ?? t('selected', { count: field.value.length, max: REPORT_LIMITS.devices })}>
            <DevicePicker value={field.value} onChange={field.onChange} knownNames={knownNames} testId="report-picker" />
          </FormGroup>
        )} />
        <Controller name="recipients" control={control} render={({ field: { ref, ...field }, fieldState }) => (
          <FormGroup label={t('field.recipients')} labelFor="report-recipients" intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message ?? t('recipientsHint', { max: REPORT_LIMITS.recipients })}>
            <TextArea {...field} id="report-recipients" inputRef={ref} fill rows={3} data-testid="report-recipients" />
          </FormGroup>
        )} />
        <Controller name="enabled" control={control} render={({ field }) => (
          <Switch checked={field.value} label={t('field.enabled')} onChange={(e) => field.onChange(e.currentTarget.checked)} />
        )} />
        {formError && <Callout intent="danger" data-testid="report-form-error">{formError}</Callout>}
      </DialogBody>
      <DialogFooter actions={<>
        <Button text={t('cancel')} onClick={onDone} />
        <Button type="submit" intent="primary" text={t('save')} loading={save.isPending} data-testid="report-save" />
      </>} />
    </form>
  );
}
