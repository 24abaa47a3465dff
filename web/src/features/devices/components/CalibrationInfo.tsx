import { Button, Callout, Checkbox, Classes, Dialog, DialogBody, DialogFooter, Tag } from '@blueprintjs/core';
import { EditIcon, ConfirmIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { LIVE_VALIDATION } from '@/lib/forms';
import { notify } from '@/lib/notify';
import { showError } from '@/lib/serverErrors';
import { NO_VALUE } from '@/lib/units';
import {
  INTERVAL_MONTHS,
  dueState,
  useDeviceCalibration,
  useSaveCalibrationInterval,
  type DeviceCalibration,
} from '../api/calibration';
import { TextField } from './TextField';

const DUE_INTENT = { overdue: 'danger', soon: 'warning', later: 'success' } as const;

function localToday(): string {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
}

/** The device's calibration: its newest calibration, the due date (tagged when due), the certificate
 * that set them and the interval in force, which who may change the device sets. */
export function CalibrationInfo({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('devices');
  const query = useDeviceCalibration(deviceId);
  const [editing, setEditing] = useState(false);
  const known = query.data;
  if (!known) return null;  // loading, or a caller the server shows nothing: the section is left out
  const state = dueState(known.dueOn, localToday());
  const muted = (text: string) => <span className={Classes.TEXT_MUTED}>{text}</span>;
  const facts: [string, string, ReactNode][] = [
    ['calibratedOn', t('calibration.calibratedOn'), known.calibratedOn ?? muted(t('calibration.never'))],
    ['dueOn', t('calibration.dueOn'), known.dueOn ? (
      <span className="jc-info-inline">
        {known.dueOn}
        {state && <Tag minimal round intent={DUE_INTENT[state]} data-testid="calibration-due-state">{t(`calibration.state.${state}`)}</Tag>}
      </span>
    ) : muted(NO_VALUE)],
    ['certificate', t('calibration.certificate'), known.certificate ? <span className="jc-mono">{known.certificate}</span> : muted(NO_VALUE)],
    ['interval', t('calibration.interval'), t(known.ownIntervalMonths === null ? 'calibration.intervalOfType' : 'calibration.intervalOwn',
      { count: known.intervalMonths })],
  ];
  return (
    <section className="jc-info-section" data-testid="device-calibration">
      <div className="jc-info-head">
        <h3 className="jc-info-title">{t('calibration.title')}</h3>
        {known.changeable && (
          <Button icon={<EditIcon />} text={t('calibration.change')} onClick={() => setEditing(true)} data-testid="calibration-interval-edit" />
        )}
      </div>
      <dl className="jc-info-grid">
        {facts.map(([name, label, value]) => (
          <div key={name} className="jc-info-item" data-testid={`calibration-${name}`}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <Dialog isOpen={editing} onClose={() => setEditing(false)} title={t('calibration.change')} icon={<EditIcon />}
        className="jc-info-dialog">
        {editing && <IntervalForm known={known} onDone={() => setEditing(false)} />}
      </Dialog>
    </section>
  );
}

function intervalSchema(t: (key: string, options?: Record<string, unknown>) => string) {
  return z.object({
    ofType: z.boolean(),
    intervalMonths: z.string().trim(),
  }).superRefine((values, context) => {
    if (values.ofType) return;
    const months = Number(values.intervalMonths);
    if (!/^\d{1,3}$/.test(values.intervalMonths) || months < INTERVAL_MONTHS.min || months > INTERVAL_MONTHS.max) {
      context.addIssue({ code: 'custom', path: ['intervalMonths'], message: t('calibration.intervalRange', INTERVAL_MONTHS) });
    }
  });
}
type IntervalForm = z.infer<ReturnType<typeof intervalSchema>>;

function IntervalForm({ known, onDone }: { known: DeviceCalibration; onDone: () => void }) {
  const { t } = useTranslation('devices');
  const resolver = useMemo(() => zodResolver(intervalSchema(t)), [t]);
  const form = useForm<IntervalForm>({ ...LIVE_VALIDATION, resolver, defaultValues: {
    ofType: known.ownIntervalMonths === null, intervalMonths: String(known.intervalMonths) } });
  const save = useSaveCalibrationInterval(known.deviceId);
  const [failure, setFailure] = useState<string | null>(null);
  const ofType = form.watch('ofType');
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await save.mutateAsync(values.ofType ? null : Number(values.intervalMonths));
      notify.success(t('calibration.saved'));
      onDone();
    } catch (error) {
      setFailure(showError(error, form.setError, ['intervalMonths'] as const, {}, t));
    }
  });
  return (
    <form onSubmit={(event) => void submit(event)} noValidate data-testid="calibration-interval-form">
      <DialogBody>
        <Checkbox checked={ofType} label={t('calibration.useType')} data-testid="calibration-interval-of-type"
          onChange={(event) => form.setValue('ofType', event.currentTarget.checked, { shouldValidate: true })} />
        <TextField control={form.control} name="intervalMonths" label={t('calibration.months')} maxLength={3} inputMode="numeric"
          disabled={ofType} hint={t('calibration.intervalHint')} testId="calibration-interval-months" />
        {failure && <Callout intent="danger">{failure}</Callout>}
      </DialogBody>
      <DialogFooter actions={<>
        <Button text={t('info.cancel')} onClick={onDone} />
        <Button type="submit" intent="primary" icon={<ConfirmIcon />} text={t('info.save')} loading={save.isPending}
          data-testid="calibration-interval-save" />
      </>} />
    </form>
  );
}
