import { Button, Callout, Card, FormGroup, HTMLSelect, HTMLTable, NonIdealState, SegmentedControl, Spinner, Tag } from '@blueprintjs/core';
import { ErrorIcon, FloppyDiskIcon, RefreshIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { TFunction } from 'i18next';
import type { DeviceDetail } from '@/lib/api/devices';
import { mayOperate } from '@/lib/access';
import { notify } from '@/lib/notify';
import { usePermitted } from '@/lib/permissions';
import { showError } from '@/lib/serverErrors';
import { formatInstant, formatNumber, TEMPERATURE_UNITS } from '@/lib/units';
import { useDeviceReadOnlyReason } from '@/components/ReadOnly';
import { useFdaRequired, useSigning } from '@/components/SignatureDialog';
import { TextField } from '../components/TextField';
import {
  RECORD_INTERVAL,
  UPLOAD_INTERVAL,
  useDeviceParams,
  useSaveParams,
  type CommandState,
  type DeviceParams,
  type ParamsState,
} from '../api/detailTabs';

const PRECISIONS = ['0', '1', '2', '3', '4'] as const;
const FIELDS = ['displayPrecision', 'temperatureUnit', 'uploadInterval', 'recordInterval'] as const;
const STATE_INTENT: Record<CommandState, 'none' | 'primary' | 'success' | 'warning' | 'danger'> = {
  pending: 'primary',
  acknowledged: 'success',
  failed: 'danger',
  unsent: 'danger',
  notAnswered: 'warning',
};

const seconds = (t: TFunction, range: { min: number; max: number }, key: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,6}$/, t('paramsTab.error.whole'))
    .transform(Number)
    .refine((value) => value >= range.min && value <= range.max, t(key, range));

/** The form's rules: those of the server (src/core/devices/device_commands.py), in the user's language. */
export function paramsFormSchema(t: TFunction) {
  return z
    .object({
      displayPrecision: z.enum(PRECISIONS),
      temperatureUnit: z.enum(TEMPERATURE_UNITS),
      uploadInterval: seconds(t, UPLOAD_INTERVAL, 'paramsTab.error.upload'),
      recordInterval: seconds(t, RECORD_INTERVAL, 'paramsTab.error.record'),
    })
    .refine((values) => values.recordInterval <= values.uploadInterval, {
      path: ['recordInterval'],
      message: t('paramsTab.error.recordAfterUpload'),
    });
}
type ParamsForm = z.input<ReturnType<typeof paramsFormSchema>>;
type ParamsValues = z.output<ReturnType<typeof paramsFormSchema>>;

const formOf = (params: DeviceParams): ParamsForm => ({
  displayPrecision: String(params.displayPrecision) as ParamsForm['displayPrecision'],
  temperatureUnit: params.temperatureUnit,
  uploadInterval: String(params.uploadInterval),
  recordInterval: String(params.recordInterval),
});

/**
 * The parameter settings tab: the device's own parameters, saved as a `params` command the device
 * answers over MQTT; what was asked beside what the device confirmed, and how the latest command
 * stands (sent, confirmed, refused, not sent, or not answered after a minute: never an endless wait).
 */
export function ParamsTab({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('devices');
  const query = useDeviceParams(device.deviceId);
  const permitted = usePermitted('device.list', 'edit');
  const granted = mayOperate(device, 'params');
  const writable = granted && permitted;
  const reason = useDeviceReadOnlyReason(device);
  const state = query.data;

  if (state === undefined) {
    if (query.isError) {
      return (
        <NonIdealState icon={<ErrorIcon />} title={t('paramsTab.loadFailed')}
          action={<Button icon={<RefreshIcon />} text={t('list.retry')} onClick={() => void query.refetch()} />} />
      );
    }
    return <Spinner size={30} />;
  }
  return (
    <div className="jc-tab-params" data-testid="device-params">
      <p className="jc-tab-intro">{t('paramsTab.intro')}</p>
      {!writable && (
        <Callout compact icon={null} className="jc-tab-readonly" data-testid="params-read-only">
          {granted ? t('paramsTab.noPermission') : reason}
        </Callout>
      )}
      <div className="jc-tab-columns">
        <Card elevation={0} className="jc-tab-card">
          {/* Keyed by the command: a save (or another user's) starts the form from what is now desired. */}
          <ParamsEditor key={state.commandId ?? 'none'} device={device} state={state} writable={writable} />
        </Card>
        <Card elevation={0} className="jc-tab-card">
          <CommandStatus state={state} />
        </Card>
      </div>
    </div>
  );
}

function ParamsEditor({ device, state, writable }: { device: DeviceDetail; state: ParamsState; writable: boolean }) {
  const { t } = useTranslation('devices');
  const resolver = useMemo(() => zodResolver(paramsFormSchema(t)), [t]);
  const form = useForm<ParamsForm, unknown, ParamsValues>({ resolver, mode: 'onChange', defaultValues: formOf(state.desired) });
  const save = useSaveParams(device.deviceId);
  const signing = useSigning();
  // Whether FDA wants the change signed, when the caller's switches say (else the server's 428 asks).
  const fdaOn = useFdaRequired(device, writable);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const params = { ...values, displayPrecision: Number(values.displayPrecision) };
    try {
      const saved = await signing.signIfNeeded(
        { label: `${device.deviceName} · ${t('paramsTab.title')}`, recordType: 'deviceParams', meaning: 'approved', reasonRequired: true },
        (signature) => save.mutateAsync(signature ? { ...params, signature } : params),
        { required: fdaOn, key: `device:${device.deviceId}` },
      );
      if (saved !== null) notify.success(t('paramsTab.sent'));
    } catch (error) {
      setFailure(showError(error, form.setError, FIELDS, {}, t));
    }
  });

  return (
    <>
      {signing.dialog}
      <form onSubmit={submit} noValidate aria-label={t('paramsTab.title')} data-testid="params-form">
        <fieldset disabled={!writable} className="jc-tab-fieldset">
          <h3 className="jc-tab-title">{t('paramsTab.title')}</h3>
          <div className="jc-tab-row">
            <Controller
              name="displayPrecision"
              control={form.control}
              render={({ field: { ref, ...field } }) => (
                <FormGroup label={t('info.field.precision')} labelFor="param-precision">
                  <HTMLSelect {...field} id="param-precision" ref={ref} fill
                    options={PRECISIONS.map((value) => ({ value, label: `${value} · ${formatNumber(3.14159, Number(value))}` }))} />
                </FormGroup>
              )}
            />
            <Controller
              name="temperatureUnit"
              control={form.control}
              render={({ field }) => (
                <FormGroup label={t('info.field.unit')}>
                  <SegmentedControl aria-label={t('info.field.unit')} fill value={field.value} disabled={!writable}
                    onValueChange={(value) => field.onChange(value)}
                    options={TEMPERATURE_UNITS.map((unit) => ({ value: unit, label: t(`info.unit.${unit}`) }))} />
                </FormGroup>
              )}
            />
          </div>
          <div className="jc-tab-row">
            <TextField control={form.control} name="uploadInterval" id="param-upload" label={t('paramsTab.field.upload')}
              maxLength={6} inputMode="numeric" testId="param-upload"
              hint={t('paramsTab.hint.upload', UPLOAD_INTERVAL)} />
            <TextField control={form.control} name="recordInterval" id="param-record" label={t('paramsTab.field.record')}
              maxLength={6} inputMode="numeric" testId="param-record"
              hint={t('paramsTab.hint.record', RECORD_INTERVAL)} />
          </div>
          {failure && <Callout intent="danger" compact data-testid="params-failure">{failure}</Callout>}
          {writable && (
            <Button type="submit" intent="primary" icon={<FloppyDiskIcon />} loading={save.isPending}
              text={t('paramsTab.save')} data-testid="params-save" />
          )}
        </fieldset>
      </form>
    </>
  );
}

function CommandStatus({ state }: { state: ParamsState }) {
  const { t, i18n } = useTranslation('devices');
  const rows: [string, string, string | undefined][] = [
    ['precision', t('info.field.precision'), undefined],
    ['unit', t('info.field.unit'), undefined],
    ['upload', t('paramsTab.field.upload'), undefined],
    ['record', t('paramsTab.field.record'), undefined],
  ];
  const show = (params: DeviceParams | null, key: string) => {
    if (params === null) return '—';
    if (key === 'precision') return String(params.displayPrecision);
    if (key === 'unit') return t(`info.unit.${params.temperatureUnit}`);
    return t('paramsTab.seconds', { count: key === 'upload' ? params.uploadInterval : params.recordInterval });
  };
  return (
    <div data-testid="params-status">
      <div className="jc-tab-status-head">
        <h3 className="jc-tab-title">{t('paramsTab.status')}</h3>
        {state.state === null ? (
          <Tag minimal round data-testid="params-state">{t('paramsTab.state.never')}</Tag>
        ) : (
          <Tag minimal round intent={STATE_INTENT[state.state]} icon={state.state === 'pending' ? <Spinner size={12} /> : undefined}
            data-testid="params-state" data-state={state.state}>
            {t(`paramsTab.state.${state.state}`)}
          </Tag>
        )}
      </div>
      {state.state !== null && <p className="jc-tab-muted">{t(`paramsTab.stateHint.${state.state}`)}</p>}
      {state.error && (
        <Callout intent="danger" compact className="jc-tab-device-error" data-testid="params-device-error">
          {t('paramsTab.deviceSaid', { error: state.error })}
        </Callout>
      )}
      <HTMLTable compact className="jc-tab-compare">
        <thead>
          <tr>
            <th />
            <th scope="col">{t('paramsTab.desired')}</th>
            <th scope="col">{t('paramsTab.acknowledged')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([key, label]) => {
            const asked = show(state.desired, key);
            const confirmed = show(state.acknowledged, key);
            return (
              <tr key={key} className={asked !== confirmed ? 'jc-tab-differs' : undefined}>
                <th scope="row">{label}</th>
                <td>{asked}</td>
                <td data-testid={`acknowledged-${key}`}>{confirmed}</td>
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>
      {state.sentAt && (
        <p className="jc-tab-muted">
          {t('paramsTab.sentAt', { time: formatInstant(state.sentAt, i18n.language) })}
          {state.answeredAt ? ` · ${t('paramsTab.answeredAt', { time: formatInstant(state.answeredAt, i18n.language) })}` : ''}
        </p>
      )}
    </div>
  );
}
