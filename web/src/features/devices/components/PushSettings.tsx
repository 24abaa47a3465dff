import { Button, Callout, Card, Checkbox, FormGroup, HTMLTable, InputGroup, Spinner } from '@blueprintjs/core';
import { ErrorIcon, FloppyDiskIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useController, useForm, type Control, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { notify } from '@/lib/notify';
import { sortError } from '@/lib/serverErrors';
import { ALARM_KINDS, usePushSetting, useSavePushSetting, type PushSetting } from '../api/alarmRules';
import { CHANNELS, KIND_FIELDS, pushFormSchema, pushFormValues, pushUpdate, TIME_ZONE_MAX, type PushForm } from '../pushSettingForm';

/**
 * Who gets what (DeviceAlarmPushSetting): which alarm kinds go by SMS, voice call and e-mail to
 * the recipients of the device's rules, and quiet hours, inside which no call is made and an SMS
 * is held back from whoever gets the e-mail (the server's rule; see core/alarms/push.py).
 */
export function PushSettings({ deviceId, writable }: { deviceId: number; writable: boolean }) {
  const { t } = useTranslation('devices');
  const query = usePushSetting(deviceId);
  if (query.data === undefined) {
    return query.isError ? <Callout intent="danger" icon={<ErrorIcon />} compact>{t('alarmSettings.loadFailed')}</Callout> : <Spinner size={24} />;
  }
  return <PushForm key={`${query.data.stored}-${query.dataUpdatedAt}`} setting={query.data} writable={writable} />;
}

const SERVER_FIELDS = ['smsKinds', 'voiceKinds', 'emailKinds', 'quietStart', 'quietEnd', 'timeZone'] as const;

function PushForm({ setting, writable }: { setting: PushSetting; writable: boolean }) {
  const { t } = useTranslation('devices');
  const resolver = useMemo(() => zodResolver(pushFormSchema(t)), [t]);
  const form = useForm<PushForm>({ resolver, mode: 'onChange', defaultValues: pushFormValues(setting) });
  const save = useSavePushSetting(setting.deviceId);
  const [failure, setFailure] = useState<string | null>(null);

  // The bounds are checked together: typing one says at once that the other is missing.
  const checkBounds = () => void form.trigger(['quietStart', 'quietEnd']);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await save.mutateAsync(pushUpdate(setting.deviceId, values));
      notify.success(t('push.saved'));
    } catch (error) {
      const sorted = sortError(error, SERVER_FIELDS, {}, t);
      for (const [name, message] of Object.entries(sorted.fields)) {
        if (message && (name === 'quietStart' || name === 'quietEnd' || name === 'timeZone')) {
          form.setError(name, { type: 'server', message });
        }
      }
      const kinds = SERVER_FIELDS.slice(0, 3).map((name) => sorted.fields[name]).filter(Boolean);
      setFailure([...kinds, sorted.form].filter(Boolean).join(' ') || null);
    }
  });

  return (
    <Card className="jc-alarm-rule" elevation={0} data-testid="push-settings">
      <form onSubmit={submit} noValidate aria-label={t('push.title')}>
        <fieldset disabled={!writable} className="jc-alarm-fieldset">
          <div className="jc-alarm-rule-head">
            <h3 className="jc-alarm-rule-title">{t('push.title')}</h3>
          </div>
          <p className="jc-alarm-none">{t('push.intro')}</p>
          <div className="jc-push-table-wrap">
            <HTMLTable compact className="jc-push-table">
              <thead>
                <tr>
                  <th scope="col">{t('push.kind')}</th>
                  {CHANNELS.map((channel) => <th key={channel} scope="col">{t(`push.channel.${channel}`)}</th>)}
                </tr>
              </thead>
              <tbody>
                {ALARM_KINDS.map((kind) => (
                  <tr key={kind}>
                    <th scope="row">{t(`push.kindName.${kind}`)}</th>
                    {CHANNELS.map((channel) => (
                      <td key={channel}>
                        <KindBox control={form.control} name={`${channel}.${KIND_FIELDS[kind]}`}
                          label={`${t(`push.kindName.${kind}`)}: ${t(`push.channel.${channel}`)}`} testId={`push-${channel}-${kind}`} />
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
          <h4 className="jc-alarm-recipients-title">{t('push.quietTitle')}</h4>
          <p className="jc-alarm-none">{t('push.quietHint')}</p>
          <div className="jc-alarm-row">
            <TimeField control={form.control} name="quietStart" label={t('push.quietStart')} type="time" onEdit={checkBounds} />
            <TimeField control={form.control} name="quietEnd" label={t('push.quietEnd')} type="time" onEdit={checkBounds} />
            <TimeField control={form.control} name="timeZone" label={t('push.timeZone')} type="text" maxLength={TIME_ZONE_MAX} />
          </div>
        </fieldset>
        {failure && (
          <Callout intent="danger" icon={<ErrorIcon />} compact role="alert" className="jc-alarm-failure" data-testid="push-error">
            {failure}
          </Callout>
        )}
        {writable && (
          <div className="jc-alarm-actions">
            <Button type="submit" intent="primary" icon={<FloppyDiskIcon />} text={t('alarmSettings.save')}
              loading={form.formState.isSubmitting} data-testid="push-save" />
          </div>
        )}
      </form>
    </Card>
  );
}

function KindBox({ control, name, label, testId }: { control: Control<PushForm>; name: FieldPath<PushForm>; label: string; testId: string }) {
  const { field } = useController({ control, name });
  return (
    <Checkbox checked={Boolean(field.value)} aria-label={label} inputRef={field.ref} onBlur={field.onBlur}
      onChange={(event) => field.onChange(event.currentTarget.checked)} className="jc-push-box" data-testid={testId} />
  );
}

function TimeField({ control, name, label, type, maxLength, onEdit }: {
  control: Control<PushForm>; name: 'quietStart' | 'quietEnd' | 'timeZone'; label: string; type: 'time' | 'text'; maxLength?: number;
  onEdit?: () => void;
}) {
  const { field: { ref, value, onChange, ...field }, fieldState } = useController({ control, name });
  const id = `push-${name}`;
  return (
    <FormGroup label={label} labelFor={id} intent={fieldState.error ? 'danger' : 'none'} className="jc-alarm-field"
      helperText={fieldState.error ? <span id={`${id}-help`}>{fieldState.error.message}</span> : undefined}>
      <InputGroup {...field} id={id} type={type} value={String(value)} inputRef={ref} maxLength={maxLength}
        onChange={(event) => { onChange(event.target.value); onEdit?.(); }}
        intent={fieldState.error ? 'danger' : 'none'} aria-invalid={fieldState.error ? true : undefined}
        aria-describedby={fieldState.error ? `${id}-help` : undefined} />
    </FormGroup>
  );
}
