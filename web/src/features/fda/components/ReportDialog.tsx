import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core';
import { DocumentIcon, ErrorIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { DevicePicker } from '@/components/DevicePicker';
import { useRevalidateOnLanguageChange } from '@/hooks/useRevalidateOnLanguageChange';
import { lengthOf } from '@/lib/alarmValues';
import { clearingEmoji } from '@/lib/clearEmoji';
import { FDA_LIMITS, fdaKeys, insertReport, type ReportFields } from '@/lib/api/fda';
import { LIVE_VALIDATION } from '@/lib/forms';
import { notify } from '@/lib/notify';
import { showError } from '@/lib/serverErrors';
import { daysBetween, isDay, lastMonth, periodOf } from '../dates';

/** The rules the server holds a report's period to: a device, a start before the end, at most 366 days. */
export function reportFormSchema(t: TFunction) {
  return z.object({
    deviceId: z.number().nullable().refine((id) => id !== null, t('reports.error.device')),
    first: z.string().refine(isDay, t('reports.error.day')),
    last: z.string().refine(isDay, t('reports.error.day')),
    title: z.string().refine((v) => lengthOf(v.trim()) <= FDA_LIMITS.reportTitle, t('error.tooLong', { max: FDA_LIMITS.reportTitle })),
  })
    .refine((form) => !isDay(form.first) || !isDay(form.last) || form.first <= form.last, { path: ['last'], message: t('badRange') })
    .refine((form) => !isDay(form.first) || !isDay(form.last) || daysBetween(form.first, form.last) <= FDA_LIMITS.reportDays,
      { path: ['last'], message: t('reports.error.tooLong', { days: FDA_LIMITS.reportDays }) });
}
type ReportForm = z.input<ReturnType<typeof reportFormSchema>>;
const FIELDS = ['deviceId', 'first', 'last', 'title'] as const;

export function reportBody(form: ReportForm): ReportFields {
  if (form.deviceId === null) throw new Error('no device chosen');
  const { startTime, endTime } = periodOf(form.first, form.last);
  return { deviceId: form.deviceId, startTime: startTime!, endTime: endTime!, ...(form.title.trim() ? { title: form.title.trim() } : {}) };
}

/** A new periodic report: a device FDA mode is on for, and a period (the last month unless changed). */
export function ReportDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useTranslation('fda');
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t('reports.addTitle')} icon={<DocumentIcon />} className="jc-fda-dialog"
      canOutsideClickClose={false}>
      {isOpen && <ReportFormBody onClose={onClose} />}
    </Dialog>
  );
}

function ReportFormBody({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('fda');
  const queryClient = useQueryClient();
  const resolver = useMemo(() => zodResolver(reportFormSchema(t)), [t]);
  const month = useMemo(() => lastMonth(), []);
  const form = useForm<ReportForm, unknown, ReportForm>({ ...LIVE_VALIDATION, resolver, defaultValues: { deviceId: null, first: month.first, last: month.last, title: '' } });
  useRevalidateOnLanguageChange(form);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const report = await insertReport(reportBody(values));
      notify.success(t('reports.added', { title: report.title }));
      await queryClient.invalidateQueries({ queryKey: fdaKeys.all });
      onClose();
    } catch (error) {
      setFailure(showError(error, form.setError, FIELDS, {}, t));
    }
  });

  const day = (name: 'first' | 'last', label: string) => (
    <Controller name={name} control={form.control} render={({ field: { ref, ...field }, fieldState }) => (
      <FormGroup label={label} labelFor={`fda-r-${name}`} intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message}>
        <InputGroup {...field} inputRef={ref} id={`fda-r-${name}`} type="date" intent={fieldState.error ? 'danger' : 'none'}
          data-testid={`report-${name}`} />
      </FormGroup>
    )} />
  );

  return (
    <form onSubmit={submit} noValidate data-testid="report-dialog">
      <DialogBody>
        <Controller name="deviceId" control={form.control} render={({ field, fieldState }) => (
          <FormGroup label={t('reports.field.device')} intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message ?? t('reports.deviceHint')}>
            {/* one device: choosing another replaces it */}
            <DevicePicker value={field.value === null ? [] : [field.value]} knownNames={{}} testId="report-device"
              onChange={(ids) => field.onChange(ids.length > 0 ? ids[ids.length - 1]! : null)} />
          </FormGroup>
        )} />
        <div className="jc-fda-row">
          {day('first', t('reports.field.first'))}
          {day('last', t('reports.field.last'))}
        </div>
        <Controller name="title" control={form.control} render={({ field: { ref, ...field }, fieldState }) => (
          <FormGroup label={t('reports.field.title')} labelFor="fda-r-title" intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message ?? t('reports.titleHint')}>
            <InputGroup {...field} onChange={clearingEmoji(field.onChange)} inputRef={ref} id="fda-r-title"
              intent={fieldState.error ? 'danger' : 'none'} data-testid="report-title" />
          </FormGroup>
        )} />
        {failure && <Callout intent="danger" icon={<ErrorIcon />} compact role="alert" data-testid="report-error">{failure}</Callout>}
      </DialogBody>
      <DialogFooter actions={
        <>
          <Button text={t('cancel')} onClick={onClose} />
          <Button type="submit" intent="primary" text={t('reports.create')} loading={form.formState.isSubmitting} data-testid="report-create" />
        </>
      } />
    </form>
  );
}
