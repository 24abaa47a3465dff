import {
  AnchorButton,
  Button,
  Callout,
  Classes,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  SegmentedControl,
  Tag,
  TextArea,
} from '@blueprintjs/core';
import { EditIcon, ErrorIcon, FloppyDiskIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState, type ReactNode } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { showError } from '@/lib/serverErrors';
import { editionConfig } from '@/lib/config';
import { notify } from '@/lib/notify';
import { usePermitted } from '@/lib/permissions';
import { mayChange, mayOperate } from '@/lib/access';
import { NAME_MAX, useUpdateDevice, type DeviceDetail } from '@/lib/api/devices';
import {
  changeOf,
  deviceEditSchema,
  editValues,
  PRECISIONS,
  REMARK_MAX,
  type DeviceEditForm,
  type DeviceEditValues,
} from '../schemas';
import { formatInstant, formatNumber, formatValue, NO_VALUE } from '@/lib/units';
import { ServiceExpiry } from '@/components/DeviceTags';
import { ReadOnlyReason } from '@/components/ReadOnly';
import { CalibrationInfo } from './CalibrationInfo';
import { TextField } from './TextField';
import { LIVE_VALIDATION } from '@/lib/forms';

const FIELDS = ['deviceName', 'remark', 'displayPrecision', 'temperatureUnit', 'countryCode'] as const;

/** What the device is: identity, owner, service, display settings; with an edit dialog for what may change. */
export function BasicInfo({ device }: { device: DeviceDetail }) {
  const { t, i18n } = useTranslation('devices');
  const canEdit = usePermitted('device.list', 'edit');
  const [editing, setEditing] = useState(false);
  const muted = (text: string) => <span className={Classes.TEXT_MUTED}>{text}</span>;

  const sim = device.simIccid ? (
    <span className="jc-info-inline">
      <span className="jc-mono">{device.simIccid}</span>
      <Tag minimal round intent={device.jcIccidStatus === 1 ? 'success' : 'none'}>
        {t(device.jcIccidStatus === 1 ? 'info.planActive' : 'info.planInactive')}
      </Tag>
    </span>
  ) : (
    muted(t('info.simNone'))
  );

  const facts: [string, string, ReactNode][] = [
    ['name', t('info.field.name'), device.deviceName],
    ['guid', t('info.field.guid'), <span className="jc-mono">{device.deviceGuid}</span>],
    ['type', t('info.field.type'), device.deviceTypeName],
    ['sim', t('info.field.sim'), sim],
    ['owner', t('info.field.owner'), device.ownerName],
    ['organization', t('info.field.organization'), device.organizationName ?? muted(NO_VALUE)],
    ['level', t('info.field.level'), device.levelName ?? muted(NO_VALUE)],
    ['expiry', t('info.field.expiry'), <ServiceExpiry device={device} />],
    ['sms', t('info.field.sms'), String(device.smsCount)],
    ['voice', t('info.field.voice'), String(device.voiceCount)],
    ['precision', t('info.field.precision'), t('info.precisionValue', { count: device.displayPrecision, example: formatNumber(0, device.displayPrecision) })],
    ['unit', t('info.field.unit'), t(`info.unit.${device.temperatureUnit}`)],
    ['limits', t('info.field.limits'), <LimitsInForce device={device} />],
    ['countryCode', t('info.field.countryCode'), device.countryCode ? `+${device.countryCode}` : muted(NO_VALUE)],
    ['activatedAt', t('info.field.activatedAt'), device.activatedAt ? formatInstant(device.activatedAt, i18n.language) : muted(t('info.neverReported'))],
    ['createdAt', t('info.field.createdAt'), formatInstant(device.createdAt, i18n.language)],
    ['remark', t('info.field.remark'), device.remark ? <span className="jc-info-remark">{device.remark}</span> : muted(t('info.noRemark'))],
  ];

  return (
    <div className="jc-info" data-testid="device-info">
      <div className="jc-info-head">
        <h3 className="jc-info-title">{t('info.title')}</h3>
        {canEdit &&
          (mayOperate(device, 'info') ? (
            <Button icon={<EditIcon />} text={t('info.edit')} onClick={() => setEditing(true)} data-testid="device-edit" />
          ) : (
            <ReadOnlyReason device={device}>
              <AnchorButton icon={<EditIcon />} disabled text={t('info.edit')} data-testid="device-edit" />
            </ReadOnlyReason>
          ))}
      </div>
      <dl className="jc-info-grid">
        {facts.map(([key, label, value]) => (
          <div key={key} className={key === 'remark' ? 'jc-info-item jc-info-item--wide' : 'jc-info-item'} data-testid={`info-${key}`}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <CalibrationInfo deviceId={device.deviceId} />
      <Dialog
        isOpen={editing}
        onClose={() => setEditing(false)}
        title={t('info.editTitle')}
        icon={<EditIcon />}
        className="jc-info-dialog"
      >
        {editing && <EditForm device={device} onDone={() => setEditing(false)} />}
      </Dialog>
    </div>
  );
}

function EditForm({ device, onDone }: { device: DeviceDetail; onDone: () => void }) {
  const { t } = useTranslation('devices');
  const countryCodeEditable = !editionConfig().countryCodeFixed;
  const renames = mayChange(device);
  const resolver = useMemo(
    () => zodResolver(deviceEditSchema(t, countryCodeEditable)),
    [t, countryCodeEditable], // t changes with the language, and the messages with it
  );
  // Taken once: the device is asked again every 10 s, and that must not undo what is being typed.
  const form = useForm<DeviceEditForm, unknown, DeviceEditValues>({ ...LIVE_VALIDATION, resolver, defaultValues: editValues(device) });
  const update = useUpdateDevice();
  const [failure, setFailure] = useState<string | null>(null);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      // Renaming is the owner's: whoever else may edit the information leaves the name as it is.
      const change = changeOf(device.deviceId, values, countryCodeEditable);
      if (!renames) delete change.deviceName;
      await update.mutateAsync(change);
      notify.success(t('info.saved'));
      onDone();
    } catch (error) {
      setFailure(showError(error, form.setError, FIELDS, {}, t));
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label={t('info.editTitle')} data-testid="device-edit-form">
      <DialogBody>
        <TextField control={form.control} name="deviceName" label={t('info.field.name')} maxLength={NAME_MAX} required
          disabled={!renames} />
        <Controller
          name="remark"
          control={form.control}
          render={({ field: { ref, ...field }, fieldState }) => (
            <FormGroup
              label={t('info.field.remark')}
              labelFor="remark"
              labelInfo={t('info.optional')}
              intent={fieldState.error ? 'danger' : 'none'}
              helperText={fieldState.error?.message ?? t('info.remarkHint', { max: REMARK_MAX })}
            >
              <TextArea
                {...field}
                id="remark"
                inputRef={ref}
                fill
                rows={3}
                maxLength={REMARK_MAX}
                intent={fieldState.error ? 'danger' : 'none'}
                aria-invalid={fieldState.error ? true : undefined}
              />
            </FormGroup>
          )}
        />
        <div className="jc-info-form-row">
          <Controller
            name="displayPrecision"
            control={form.control}
            render={({ field: { ref, ...field }, fieldState }) => (
              <FormGroup
                label={t('info.field.precision')}
                labelFor="displayPrecision"
                intent={fieldState.error ? 'danger' : 'none'}
                helperText={fieldState.error?.message}
              >
                <HTMLSelect
                  {...field}
                  id="displayPrecision"
                  ref={ref}
                  fill
                  options={PRECISIONS.map((value) => ({
                    value,
                    label: `${value} · ${formatNumber(3.14159, Number(value))}`,
                  }))}
                />
              </FormGroup>
            )}
          />
          <Controller
            name="temperatureUnit"
            control={form.control}
            render={({ field, fieldState }) => (
              <FormGroup
                label={t('info.field.unit')}
                intent={fieldState.error ? 'danger' : 'none'}
                helperText={fieldState.error?.message ?? t('info.unitHint')}
              >
                <SegmentedControl
                  aria-label={t('info.field.unit')}
                  fill
                  value={field.value}
                  onValueChange={(value) => field.onChange(value)}
                  options={[
                    { value: 'C', label: t('info.unit.C') },
                    { value: 'F', label: t('info.unit.F') },
                  ]}
                />
              </FormGroup>
            )}
          />
        </div>
        {countryCodeEditable && (
          <TextField control={form.control} name="countryCode" label={t('info.field.countryCode')} maxLength={4} inputMode="numeric" />
        )}
        {failure && (
          <Callout intent="danger" icon={<ErrorIcon />} compact role="alert" data-testid="form-error">
            {failure}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('info.cancel')} onClick={onDone} />
            <Button
              type="submit"
              intent="primary"
              icon={<FloppyDiskIcon />}
              text={t('info.save')}
              loading={form.formState.isSubmitting}
              data-testid="device-edit-save"
            />
          </>
        }
      />
    </form>
  );
}


/** The limits each probe's rule enforces now (a switched-off rule enforces none). */
function LimitsInForce({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('devices');
  const shown = (probe: string, value: number | null) =>
    value === null ? NO_VALUE : formatValue(probe, value, device.temperatureUnit, device.displayPrecision);
  const active = device.probes.filter((p) => p.ruleEnabled && (p.upperLimit !== null || p.lowerLimit !== null));
  if (active.length === 0) return <span className={Classes.TEXT_MUTED}>{t('info.limitsNone')}</span>;
  return (
    <span className="jc-info-limits">
      {active.map((p) => (
        <span key={p.probe} data-testid={`info-limits-${p.probe}`}>
          {t('info.limitsValue', { probe: t(`probe.${p.probe}`), lower: shown(p.probe, p.lowerLimit), upper: shown(p.probe, p.upperLimit) })}
        </span>
      ))}
    </span>
  );
}
