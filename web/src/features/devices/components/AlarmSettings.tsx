import {
  Alert, Button, Callout, Card, Checkbox, FormGroup, HTMLSelect, InputGroup, NonIdealState, Spinner, Switch, Tag,
} from '@blueprintjs/core';
import { AddIcon, ErrorIcon, FloppyDiskIcon, RefreshIcon, TrashIcon, UndoIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useController, useFieldArray, useForm, type Control, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_NAMES, LANGUAGES } from '@/lib/i18n';
import { clearingEmoji } from '@/lib/clearEmoji';
import { editionConfig } from '@/lib/config';
import { notify } from '@/lib/notify';
import { usePermitted } from '@/lib/permissions';
import { mayOperate } from '@/lib/access';
import { sortError } from '@/lib/serverErrors';
import { unitSymbol } from '@/lib/units';
import type { DeviceDetail } from '@/lib/api/devices';
import { useDeviceReadOnlyReason } from '@/components/ReadOnly';
import { useFdaRequired, useSigning, type SigningRequest } from '@/components/SignatureDialog';
import { failureText } from '@/app/effects';
import { PushSettings } from './PushSettings';
import { useDeleteRule, useDeviceRules, useSaveRule, type AlarmRule } from '../api/alarmRules';
import {
  EMAIL_MAX, EMPTY_RECIPIENT, LEVELS, MAX_RECIPIENTS, PHONE_MAX, RECIPIENT_NAME_MAX, RULE_NAME_MAX, ruleFormSchema,
  ruleFormValues, ruleSettings, shownRange, type RuleForm,
} from '../alarmRuleForm';

/**
 * The push-config tab (spec seed 001 section 2): per probe of the device, its alarm rule: limits,
 * delay, graded levels 1-3 with their minutes, recipients, and the switch. A caller who may only
 * read the device sees the same settings, disabled, and is never offered a save (a 403 ends the
 * session).
 */
export function AlarmSettings({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('devices');
  const rules = useDeviceRules(device.deviceId);
  const permitted = usePermitted('device.list', 'edit');
  const granted = mayOperate(device, 'push');
  const writable = granted && permitted;
  const reason = useDeviceReadOnlyReason(device);

  if (rules.data === undefined) {
    if (rules.isError) {
      return (
        <NonIdealState
          icon={<ErrorIcon />}
          title={t('alarmSettings.loadFailed')}
          action={<Button icon={<RefreshIcon />} text={t('list.retry')} onClick={() => void rules.refetch()} />}
        />
      );
    }
    return <Spinner size={30} />;
  }
  return (
    <div className="jc-alarm-settings" data-testid="alarm-settings">
      <p className="jc-alarm-intro">{t('alarmSettings.intro')}</p>
      {!writable && (
        <Callout compact icon={null} className="jc-alarm-readonly" data-testid="alarm-settings-read-only">
          {granted ? t('alarmSettings.noPermission') : reason}
        </Callout>
      )}
      {device.probes.map(({ probe }) => {
        const rule = rules.data.find((r) => r.probe === probe);
        // Keyed by the rule's version: a save or another user's change starts the form afresh.
        return (
          <RuleCard key={`${probe}-${rule?.id ?? 'new'}-${rule?.updatedAt ?? ''}`} device={device} probe={probe} rule={rule} writable={writable} />
        );
      })}
      <PushSettings deviceId={device.deviceId} writable={writable} />
    </div>
  );
}

const SERVER_FIELDS = [
  'name', 'upperLimit', 'lowerLimit', 'delaySeconds', 'level1Minutes', 'level2Minutes', 'level3Minutes', 'recipients',
] as const;
const RECIPIENT_FIELDS = ['level', 'name', 'phone', 'email', 'voice', 'language'] as const;

function RuleCard({ device, probe, rule, writable }: { device: DeviceDetail; probe: string; rule?: AlarmRule; writable: boolean }) {
  const { t } = useTranslation('devices');
  const unit = device.temperatureUnit;
  const edition = editionConfig().edition;
  const resolver = useMemo(() => zodResolver(ruleFormSchema(t, probe, unit, edition)), [t, probe, unit, edition]);
  const form = useForm<RuleForm>({
    resolver,
    mode: 'onChange',
    defaultValues: ruleFormValues(rule, probe, unit, t(`probe.${probe}`)),
  });
  const recipients = useFieldArray({ control: form.control, name: 'recipients' });
  const save = useSaveRule(device.deviceId);
  const remove = useDeleteRule(device.deviceId);
  // Where FDA mode is on for the device, a change of its alarm limits is signed (the switches say, else the server's 428).
  const signing = useSigning();
  const fdaOn = useFdaRequired(device, writable);
  const signed = (label: string): SigningRequest =>
    ({ label: `${device.deviceName} · ${label}`, recordType: 'deviceParams', meaning: 'approved', reasonRequired: true });
  const [deleting, setDeleting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // The confirmation stays open under the signature dialog (closing it first would hand the focus
  // back to the page while the signer types); a cancelled signature comes back to it.
  const [removing, setRemoving] = useState(false);
  const removeRule = async (id: number, name: string) => {
    setRemoving(true);
    try {
      const removed = await signing.signIfNeeded(signed(`${t('ruleDelete.action')} · ${name}`),
        (signature) => remove.mutateAsync({ id, ...(signature ? { signature } : {}) }),
        { required: fdaOn, key: `device:${device.deviceId}` });
      if (removed === null) return;
      setDeleting(false);
      notify.success(t('ruleDelete.done'));
    } catch (error) {
      setDeleting(false);
      notify.error(failureText(error)); // the rule stays
    } finally {
      setRemoving(false);
    }
  };
  const symbol = unitSymbol(probe, unit);
  const [low, high] = shownRange(probe, unit);
  const id = (field: string) => `rule-${probe}-${field}`;

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const settings = ruleSettings(values, probe, unit, rule);
    const body = rule ? { ...settings, id: rule.id } : { ...settings, deviceId: device.deviceId, probe };
    try {
      const saved = await signing.signIfNeeded(signed(values.name.trim() || t(`probe.${probe}`)),
        (signature) => save.mutateAsync(signature ? { ...body, signature } : body),
        { required: fdaOn, key: `device:${device.deviceId}` });
      if (saved !== null) notify.success(t('alarmSettings.saved'));
    } catch (error) {
      setFailure(showRefusal(error, form.setError, values.recipients.length, t));
    }
  });

  const levelCount = form.watch('level3Minutes').trim() ? 3 : form.watch('level2Minutes').trim() ? 2 : 1;
  const recipientsError = form.formState.errors.recipients?.root?.message ?? form.formState.errors.recipients?.message;

  return (
    <Card className="jc-alarm-rule" elevation={0} data-testid={`alarm-rule-${probe}`}>
      {signing.dialog}
      <form onSubmit={submit} noValidate aria-label={t(`probe.${probe}`)}>
        <fieldset disabled={!writable} className="jc-alarm-fieldset">
          <div className="jc-alarm-rule-head">
            <h3 className="jc-alarm-rule-title">
              {t(`probe.${probe}`)} <span className="jc-alarm-unit">({symbol})</span>
            </h3>
            {!rule && <Tag minimal round data-testid={`alarm-rule-${probe}-new`}>{t('alarmSettings.noRule')}</Tag>}
            <SwitchField control={form.control} name="enabled" label={t('alarmSettings.enabled')} testId={`rule-${probe}-enabled`} />
          </div>
          <TextField control={form.control} name="name" id={id('name')} label={t('alarmSettings.field.name')} maxLength={RULE_NAME_MAX} plainText />
          <div className="jc-alarm-row">
            <TextField control={form.control} name="upperLimit" id={id('upper')} label={t('alarmSettings.field.upperLimit')}
              unit={symbol} inputMode="decimal" hint={t('alarmSettings.hint.range', { min: low, max: high, unit: symbol })}
              onEdit={() => void form.trigger('lowerLimit')} />
            <TextField control={form.control} name="lowerLimit" id={id('lower')} label={t('alarmSettings.field.lowerLimit')}
              unit={symbol} inputMode="decimal" hint={t('alarmSettings.hint.range', { min: low, max: high, unit: symbol })}
              onEdit={() => void form.trigger('upperLimit')} />
            <TextField control={form.control} name="delayMinutes" id={id('delay')} label={t('alarmSettings.field.delay')}
              unit={t('alarmSettings.minutes')} inputMode="numeric" hint={t('alarmSettings.hint.delay')} />
          </div>
          <div className="jc-alarm-row">
            {([1, 2, 3] as const).map((level) => (
              <TextField key={level} control={form.control} name={`level${level}Minutes`} id={id(`level${level}`)}
                label={t('alarmSettings.field.level', { level })} unit={t('alarmSettings.minutes')} inputMode="numeric"
                hint={t(level === 1 ? 'alarmSettings.hint.level1' : 'alarmSettings.hint.levelOptional', { level })}
                onEdit={() => void form.trigger(['level1Minutes', 'level2Minutes', 'level3Minutes'])} />
            ))}
          </div>
          <h4 className="jc-alarm-recipients-title">{t('alarmSettings.recipients')}</h4>
          {recipients.fields.length === 0 && <p className="jc-alarm-none">{t('alarmSettings.noRecipients')}</p>}
          <ol className="jc-alarm-recipients" data-testid={`rule-${probe}-recipients`}>
            {recipients.fields.map((field, i) => (
              <li key={field.id} className="jc-alarm-recipient" data-testid={`rule-${probe}-recipient-${i}`}>
                <SelectField control={form.control} name={`recipients.${i}.level`} id={id(`r${i}-level`)}
                  label={t('alarmSettings.recipient.level')}
                  options={LEVELS.map((value) => ({ value, label: t('alarmSettings.levelName', { level: value }), disabled: Number(value) > levelCount }))} />
                <TextField control={form.control} name={`recipients.${i}.name`} id={id(`r${i}-name`)}
                  label={t('alarmSettings.recipient.name')} maxLength={RECIPIENT_NAME_MAX} plainText />
                <TextField control={form.control} name={`recipients.${i}.phone`} id={id(`r${i}-phone`)}
                  label={t('alarmSettings.recipient.phone')} maxLength={PHONE_MAX} inputMode="tel"
                  onEdit={() => void form.trigger('recipients')} />
                <TextField control={form.control} name={`recipients.${i}.email`} id={id(`r${i}-email`)}
                  label={t('alarmSettings.recipient.email')} maxLength={EMAIL_MAX} inputMode="email" className="jc-alarm-field--email"
                  onEdit={() => void form.trigger('recipients')} />
                <CheckField control={form.control} name={`recipients.${i}.voice`} label={t('alarmSettings.recipient.voice')} />
                <SelectField control={form.control} name={`recipients.${i}.language`} id={id(`r${i}-language`)}
                  label={t('alarmSettings.recipient.language')}
                  options={[{ value: '', label: t('alarmSettings.recipient.ownerLanguage') },
                    ...LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] }))]} />
                {writable && (
                  <Button variant="minimal" intent="danger" icon={<TrashIcon />} aria-label={t('alarmSettings.removeRecipient')}
                    title={t('alarmSettings.removeRecipient')} onClick={() => recipients.remove(i)}
                    className="jc-alarm-remove" data-testid={`rule-${probe}-remove-${i}`} />
                )}
              </li>
            ))}
          </ol>
          {recipientsError && <p className="jc-alarm-error" role="alert">{recipientsError}</p>}
          {writable && (
            <Button icon={<AddIcon />} text={t('alarmSettings.addRecipient')} disabled={recipients.fields.length >= MAX_RECIPIENTS}
              onClick={() => recipients.append(EMPTY_RECIPIENT)} data-testid={`rule-${probe}-add-recipient`} />
          )}
        </fieldset>
        {failure && (
          <Callout intent="danger" icon={<ErrorIcon />} compact role="alert" className="jc-alarm-failure" data-testid={`rule-${probe}-error`}>
            {failure}
          </Callout>
        )}
        {writable && (
          <div className="jc-alarm-actions">
            {rule && (
              <Button icon={<TrashIcon />} intent="danger" variant="minimal" text={t('ruleDelete.action')}
                onClick={() => setDeleting(true)} data-testid={`rule-${probe}-delete`} />
            )}
            <Button icon={<UndoIcon />} text={t('alarmSettings.reset')} disabled={!form.formState.isDirty}
              onClick={() => { form.reset(); setFailure(null); }} />
            <Button type="submit" intent="primary" icon={<FloppyDiskIcon />} text={t('alarmSettings.save')}
              loading={form.formState.isSubmitting} data-testid={`rule-${probe}-save`} />
          </div>
        )}
      </form>
      {rule && (
        <Alert isOpen={deleting} intent="danger" icon={<TrashIcon />} cancelButtonText={t('info.cancel')}
          confirmButtonText={t('ruleDelete.action')} loading={removing} onCancel={() => setDeleting(false)}
          onConfirm={() => void removeRule(rule.id, rule.name)} canEscapeKeyCancel>
          <p data-testid={`rule-${probe}-delete-confirm`}>{t('ruleDelete.warning', { name: rule.name })}</p>
        </Alert>
      )}
    </Card>
  );
}

/**
 * Puts a refusal's field messages (already in the user's language) under their fields, the
 * server's delay in seconds under the minutes; returns what is left for the whole form.
 */
function showRefusal(
  error: unknown,
  setError: (name: FieldPath<RuleForm>, error: { type: string; message: string }) => void,
  recipientCount: number,
  t: (key: string) => string,
): string | null {
  const recipientFields = Array.from({ length: recipientCount }, (_, i) => RECIPIENT_FIELDS.map((f) => `recipients.${i}.${f}`)).flat();
  const sorted = sortError(error, [...SERVER_FIELDS, ...recipientFields], {}, t);
  for (const [name, message] of Object.entries(sorted.fields)) {
    if (!message) continue;
    const field = (name === 'delaySeconds' ? 'delayMinutes' : name) as FieldPath<RuleForm>;
    setError(field, { type: 'server', message });
  }
  return sorted.form;
}

interface FieldProps {
  control: Control<RuleForm>;
  name: FieldPath<RuleForm>;
  id: string;
  label: string;
  hint?: string;
  unit?: string;
  maxLength?: number;
  inputMode?: 'decimal' | 'numeric' | 'tel' | 'email';
  onEdit?: () => void;
  className?: string;
  /** A name: drops emoji as typed (the spec's clear-emoji directive). */
  plainText?: boolean;
}

function TextField({ control, name, id, label, hint, unit, maxLength, inputMode, onEdit, className, plainText = false }: FieldProps) {
  const { field: { ref, value, onChange, ...field }, fieldState } = useController({ control, name });
  const store = plainText ? clearingEmoji(onChange) : (event: { target: { value: string } }) => onChange(event.target.value);
  const help = fieldState.error?.message ?? hint;
  return (
    <FormGroup label={label} labelFor={id} intent={fieldState.error ? 'danger' : 'none'}
      helperText={help ? <span id={`${id}-help`}>{help}</span> : undefined} className={`jc-alarm-field ${className ?? ''}`}>
      <InputGroup
        {...field}
        id={id}
        value={String(value ?? '')}
        onChange={(event) => { store(event); onEdit?.(); }}
        inputRef={ref}
        maxLength={maxLength}
        inputMode={inputMode}
        rightElement={unit ? <Tag minimal>{unit}</Tag> : undefined}
        intent={fieldState.error ? 'danger' : 'none'}
        aria-invalid={fieldState.error ? true : undefined}
        aria-describedby={help ? `${id}-help` : undefined}
      />
    </FormGroup>
  );
}

function SelectField({ control, name, id, label, options }: Pick<FieldProps, 'control' | 'name' | 'id' | 'label'> & {
  options: { value: string; label: string; disabled?: boolean }[];
}) {
  const { field: { ref, value, ...field }, fieldState } = useController({ control, name });
  return (
    <FormGroup label={label} labelFor={id} intent={fieldState.error ? 'danger' : 'none'}
      helperText={fieldState.error?.message} className="jc-alarm-field jc-alarm-field--level">
      <HTMLSelect {...field} ref={ref} id={id} value={String(value)} options={options} fill />
    </FormGroup>
  );
}

function CheckField({ control, name, label }: Pick<FieldProps, 'control' | 'name' | 'label'>) {
  const { field, fieldState } = useController({ control, name });
  return (
    <FormGroup intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message} className="jc-alarm-field jc-alarm-field--voice">
      <Checkbox checked={Boolean(field.value)} label={label} onChange={(event) => field.onChange(event.currentTarget.checked)}
        inputRef={field.ref} onBlur={field.onBlur} />
    </FormGroup>
  );
}

function SwitchField({ control, name, label, testId }: Pick<FieldProps, 'control' | 'name' | 'label'> & { testId: string }) {
  const { field } = useController({ control, name });
  return (
    <Switch checked={Boolean(field.value)} label={label} onChange={(event) => field.onChange(event.currentTarget.checked)}
      inputRef={field.ref} onBlur={field.onBlur} className="jc-alarm-switch" data-testid={testId} />
  );
}
