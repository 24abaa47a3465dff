import { Button, Callout, Classes, Drawer, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { AddIcon, CrossIcon, FloppyDiskIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { Controller, useFieldArray, useForm, type Control, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { DevicePicker } from '@/components/DevicePicker';
import { useFenceChoices, type Fence } from '@/lib/api/fences';
import { LIVE_VALIDATION } from '@/lib/forms';
import { notify } from '@/lib/notify';
import { usePermissions } from '@/lib/permissions';
import { showError } from '@/lib/serverErrors';
import {
  WAYBILL_LIMITS, useSaveTemplate, useSaveWaybill, useTemplates, type Waybill, type WaybillDetail,
} from '../api/waybills';
import { toFields, toForm, waybillFormSchema, type WaybillForm } from '../waybillForm';

interface WaybillDrawerProps {
  /** The waybill to edit, 'new' to make one; null: closed. */
  waybill: Waybill | 'new' | null;
  onClose: () => void;
  onSaved?: (waybill: WaybillDetail) => void;
}

/** The fields the server may refuse by name (its 422 answers). */
export const SERVER_FIELDS = [
  'orderNum', 'goodsName', 'expressNumber', 'coolerCode', 'upperLimit', 'lowerLimit', 'senderName', 'senderPhone',
  'senderAddress', 'receiverName', 'receiverPhone', 'receiverAddress', 'startTime', 'stopTime', 'originFenceId',
  'destinationFenceId',
] as const satisfies readonly FieldPath<WaybillForm>[];

/** Makes a waybill or edits it: particulars, parties, alarm contacts, planned times and its devices. */
export function WaybillDrawer({ waybill, onClose, onSaved }: WaybillDrawerProps) {
  const { t } = useTranslation('waybills');
  return (
    <Drawer isOpen={waybill !== null} onClose={onClose} className="jc-wb-drawer" size="min(720px, 100vw)"
      title={t(waybill === 'new' ? 'addTitle' : 'editTitle')}>
      {waybill !== null && <WaybillFormBody waybill={waybill === 'new' ? null : waybill} onDone={onClose} onSaved={onSaved} />}
    </Drawer>
  );
}

function Field({ control, name, label, type, autoFocus }: {
  control: Control<WaybillForm>; name: FieldPath<WaybillForm>; label: string; type?: string; autoFocus?: boolean;
}) {
  return (
    <Controller name={name} control={control} render={({ field: { ref, value, ...field }, fieldState }) => (
      <FormGroup label={label} labelFor={`waybill-${name}`} intent={fieldState.error ? 'danger' : 'none'}
        helperText={fieldState.error?.message}>
        <InputGroup {...field} value={typeof value === 'string' ? value : ''} id={`waybill-${name}`} inputRef={ref}
          type={type} autoFocus={autoFocus} intent={fieldState.error ? 'danger' : 'none'} aria-label={label}
          data-testid={`waybill-${name.replace(/\./g, '-')}`} />
      </FormGroup>
    )} />
  );
}

/** The fence a trip starts or finishes at, among the caller's; one not listed (gone, or past the first page) stays. */
function FenceSelect({ control, name, label, fences }: {
  control: Control<WaybillForm>; name: 'originFenceId' | 'destinationFenceId'; label: string; fences: readonly Fence[] | undefined;
}) {
  const { t } = useTranslation('waybills');
  return (
    <Controller name={name} control={control} render={({ field: { ref, value, onChange, onBlur }, fieldState }) => {
      const options = [{ value: '', label: t('fence.none') }, ...(fences ?? []).map((f) => ({ value: String(f.id), label: f.name }))];
      if (value && !options.some((o) => o.value === value)) options.push({ value, label: t('fence.unknown', { id: value }) });
      return (
        <FormGroup label={label} labelFor={`waybill-${name}`} intent={fieldState.error ? 'danger' : 'none'}
          helperText={fieldState.error?.message}>
          <HTMLSelect ref={ref} id={`waybill-${name}`} value={value} onChange={(e) => onChange(e.currentTarget.value)}
            onBlur={onBlur} options={options} fill disabled={fences === undefined} data-testid={`waybill-${name}`} />
        </FormGroup>
      );
    }} />
  );
}

function WaybillFormBody({ waybill, onDone, onSaved }: { waybill: Waybill | null; onDone: () => void;
  onSaved?: (waybill: WaybillDetail) => void }) {
  const { t } = useTranslation('waybills');
  const held = usePermissions();
  // Binding is an edit and a template an addition on the server: without them the drawer does not offer them.
  const mayBind = held.has('waybill.list:edit');
  const mayKeepTemplate = held.has('waybill.list:add');
  // The fences are listed with the geofence page's permission; without it a waybill's fences stay as they are.
  const mayPickFences = held.has('waybill.geofence');
  const fences = useFenceChoices(mayPickFences);
  const schema = useMemo(() => waybillFormSchema(t), [t]);
  const save = useSaveWaybill();
  const saveTemplate = useSaveTemplate();
  const templates = useTemplates();
  const [formError, setFormError] = useState<string | null>(null);
  const [templateName, setTemplateName] = useState('');
  const knownNames = useMemo(
    () => Object.fromEntries((waybill?.devices ?? []).map((d) => [d.deviceId, d.deviceName])), [waybill]);
  const { control, handleSubmit, setError, reset, getValues, trigger, formState } = useForm<WaybillForm>({
    resolver: zodResolver(schema), ...LIVE_VALIDATION,
    defaultValues: toForm(waybill, waybill?.devices.map((d) => d.deviceId) ?? []),
  });
  const contacts = useFieldArray({ control, name: 'alarmContacts' });
  // Devices stay bound while the particulars change once the trip runs; a finished one changes nothing.
  const running = waybill !== null && waybill.state === 1;

  const fillFrom = (value: string) => {
    const template = templates.data?.data.find((row) => String(row.id) === value);
    if (template) reset(toForm(template, getValues('deviceIds')));
  };
  const keepAsTemplate = async () => {
    if (!(await trigger())) return;
    saveTemplate.mutate({ name: templateName.trim(), fields: toFields(getValues()) }, {
      onSuccess: (saved) => { notify.success(t('templateSaved', { name: saved.templateName })); setTemplateName(''); },
      onError: (error) => notify.error(error instanceof Error ? error.message : String(error)),
    });
  };
  const submit = handleSubmit((values) => {
    setFormError(null);
    save.mutate({ fields: toFields(values), id: waybill?.id, deviceIds: mayBind ? values.deviceIds : undefined }, {
      onSuccess: (saved) => { onSaved?.(saved); onDone(); },
      onError: (error) => setFormError(showError(error, setError, SERVER_FIELDS, {}, t)),
    });
  });
  const templateNameLength = [...templateName.trim()].length;
  const contactsError = formState.errors.alarmContacts?.root?.message ?? formState.errors.alarmContacts?.message;
  return (
    <form onSubmit={(e) => void submit(e)} data-testid="waybill-form" className="bp6-drawer-body">
      {waybill === null && (templates.data?.data.length ?? 0) > 0 && (
        <div className="jc-wb-template">
          <HTMLSelect aria-label={t('template.fill')} defaultValue="" onChange={(e) => fillFrom(e.currentTarget.value)}
            data-testid="waybill-template-select"
            options={[{ value: '', label: t('template.fill') },
              ...(templates.data?.data ?? []).map((row) => ({ value: String(row.id), label: row.templateName }))]} />
        </div>
      )}
      <div className="jc-wb-grid">
        <Field control={control} name="orderNum" label={t('field.orderNum')} autoFocus />
        <Field control={control} name="goodsName" label={t('field.goodsName')} />
        <Field control={control} name="expressNumber" label={t('field.expressNumber')} />
        <Field control={control} name="coolerCode" label={t('field.coolerCode')} />
        <Field control={control} name="lowerLimit" label={t('field.lowerLimit')} type="number" />
        <Field control={control} name="upperLimit" label={t('field.upperLimit')} type="number" />
        <Field control={control} name="startTime" label={t('field.startTime')} type="datetime-local" />
        <Field control={control} name="stopTime" label={t('field.stopTime')} type="datetime-local" />
      </div>
      {mayPickFences && <>
        <p className="jc-wb-section">{t('section.fences')}</p>
        <p className={`${Classes.TEXT_MUTED} jc-wb-help`}>{t('fence.help')}</p>
        <div className="jc-wb-grid">
          <FenceSelect control={control} name="originFenceId" label={t('field.originFence')} fences={fences.data?.data} />
          <FenceSelect control={control} name="destinationFenceId" label={t('field.destinationFence')}
            fences={fences.data?.data} />
        </div>
      </>}
      <p className="jc-wb-section">{t('section.sender')}</p>
      <div className="jc-wb-grid">
        <Field control={control} name="senderName" label={t('field.name')} />
        <Field control={control} name="senderPhone" label={t('field.phone')} />
        <Field control={control} name="senderAddress" label={t('field.address')} />
      </div>
      <p className="jc-wb-section">{t('section.receiver')}</p>
      <div className="jc-wb-grid">
        <Field control={control} name="receiverName" label={t('field.name')} />
        <Field control={control} name="receiverPhone" label={t('field.phone')} />
        <Field control={control} name="receiverAddress" label={t('field.address')} />
      </div>
      <p className="jc-wb-section">{t('section.contacts')}</p>
      <FormGroup intent={contactsError ? 'danger' : 'none'} helperText={contactsError}>
        {contacts.fields.map((row, index) => (
          <div key={row.id} className="jc-wb-contact" data-testid="waybill-contact">
            <Field control={control} name={`alarmContacts.${index}.name`} label={t('field.name')} />
            <Field control={control} name={`alarmContacts.${index}.phone`} label={t('field.phone')} />
            <Field control={control} name={`alarmContacts.${index}.email`} label={t('field.email')} />
            <Button variant="minimal" icon={<CrossIcon />} aria-label={t('contact.remove')} title={t('contact.remove')}
              onClick={() => contacts.remove(index)} data-testid="waybill-contact-remove" />
          </div>
        ))}
        <Button variant="outlined" icon={<AddIcon />} text={t('contact.add')} alignText="start"
          disabled={contacts.fields.length >= WAYBILL_LIMITS.contacts}
          onClick={() => contacts.append({ name: '', phone: '', email: '' })} data-testid="waybill-contact-add" />
      </FormGroup>
      {mayBind && <>
        <p className="jc-wb-section">{t('section.devices')}</p>
        {running && <p className="jc-wb-muted">{t('devicesWhileRunning')}</p>}
        <Controller name="deviceIds" control={control} render={({ field, fieldState }) => (
          <FormGroup intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message}>
            <DevicePicker value={field.value} onChange={field.onChange} knownNames={knownNames} testId="waybill-picker" />
          </FormGroup>
        )} />
      </>}
      {formError && <Callout intent="danger" data-testid="waybill-form-error">{formError}</Callout>}
      <div className="jc-wb-template">
        {mayKeepTemplate && <>
          <InputGroup value={templateName} onValueChange={setTemplateName} placeholder={t('template.name')}
            aria-label={t('template.name')} data-testid="waybill-template-name"
            intent={templateNameLength > WAYBILL_LIMITS.templateName ? 'danger' : 'none'} />
          <Button icon={<FloppyDiskIcon />} text={t('template.save')} loading={saveTemplate.isPending}
            disabled={templateNameLength < 1 || templateNameLength > WAYBILL_LIMITS.templateName}
            onClick={() => void keepAsTemplate()} data-testid="waybill-template-save" />
        </>}
        <span className="jc-wb-spacer" />
        <Button text={t('cancel')} onClick={onDone} />
        <Button type="submit" intent="primary" text={t('save')} loading={save.isPending} data-testid="waybill-save" />
      </div>
    </form>
  );
}
