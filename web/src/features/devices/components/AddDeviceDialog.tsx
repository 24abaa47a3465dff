import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, TextArea } from '@blueprintjs/core';
import { AddIcon, ErrorIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import './manage.css';
import { showError } from '@/lib/serverErrors';
import { NAME_MAX } from '@/lib/api/devices';
import { useAddableTypes, useInsertDevice, type DeviceAdded } from '../api/manage';
import { deviceAddSchema, EMPTY_ADD_FORM, GUID_MAX, newDeviceOf, type DeviceAddForm, type DeviceAddValues } from '../addSchemas';
import { REMARK_MAX } from '../schemas';
import { TextField } from './TextField';

const FIELDS = ['deviceGuid', 'deviceName', 'typeId', 'remark'] as const;
/** 1012 already added, 1013 a type not addable here. */
const BY_CODE = { 1012: 'deviceGuid', 1013: 'typeId' } as const;

interface AddDeviceDialogProps {
  isOpen: boolean;
  onClose: () => void;
  /** The device was added: its login is to be shown once. */
  onAdded: (added: DeviceAdded) => void;
}

/** Add the device in hand by the GUID printed on it; two months of service come free. */
export function AddDeviceDialog({ isOpen, onClose, onAdded }: AddDeviceDialogProps) {
  const { t } = useTranslation('devices');
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t('add.title')} icon={<AddIcon />} className="jc-add-dialog">
      {isOpen && <AddForm onClose={onClose} onAdded={onAdded} />}
    </Dialog>
  );
}

function AddForm({ onClose, onAdded }: Omit<AddDeviceDialogProps, 'isOpen'>) {
  const { t } = useTranslation('devices');
  const resolver = useMemo(() => zodResolver(deviceAddSchema(t)), [t]);
  const form = useForm<DeviceAddForm, unknown, DeviceAddValues>({ resolver, defaultValues: EMPTY_ADD_FORM, mode: 'onChange' });
  const types = useAddableTypes();
  const insert = useInsertDevice();
  const [failure, setFailure] = useState<string | null>(null);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      onAdded(await insert.mutateAsync(newDeviceOf(values)));
    } catch (error) {
      setFailure(showError(error, form.setError, FIELDS, BY_CODE, t));
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label={t('add.title')} data-testid="device-add-form">
      <DialogBody>
        <p className="jc-add-intro">{t('add.intro')}</p>
        <TextField control={form.control} name="deviceGuid" id="add-deviceGuid" testId="add-deviceGuid" label={t('add.guid')}
          maxLength={GUID_MAX + 8} hint={t('add.guidHint')} className="jc-mono" autoComplete="off" required />
        <TextField control={form.control} name="deviceName" id="add-deviceName" testId="add-deviceName"
          label={t('info.field.name')} maxLength={NAME_MAX + 8} autoComplete="off" required />
        <Controller
          name="typeId"
          control={form.control}
          render={({ field: { ref, ...field }, fieldState }) => (
            <FormGroup
              label={t('add.type')}
              labelFor="add-typeId"
              labelInfo={t('info.required')}
              intent={fieldState.error ? 'danger' : 'none'}
              helperText={fieldState.error?.message}
            >
              <HTMLSelect
                {...field}
                id="add-typeId"
                ref={ref}
                fill
                disabled={!types.data}
                data-testid="add-typeId"
                options={[
                  { value: '', label: t('add.chooseType'), disabled: true },
                  ...(types.data ?? []).map((type) => ({ value: String(type.typeId), label: `${type.typeName} (${type.typeCode})` })),
                ]}
              />
            </FormGroup>
          )}
        />
        <Controller
          name="remark"
          control={form.control}
          render={({ field: { ref, ...field }, fieldState }) => (
            <FormGroup
              label={t('info.field.remark')}
              labelFor="add-remark"
              labelInfo={t('info.optional')}
              intent={fieldState.error ? 'danger' : 'none'}
              helperText={fieldState.error?.message ?? t('add.remarkCount', { count: [...field.value].length, max: REMARK_MAX })}
            >
              <TextArea
                {...field}
                id="add-remark"
                inputRef={ref}
                fill
                rows={2}
                intent={fieldState.error ? 'danger' : 'none'}
                aria-invalid={fieldState.error ? true : undefined}
                data-testid="add-remark"
              />
            </FormGroup>
          )}
        />
        {failure && (
          <Callout intent="danger" icon={<ErrorIcon />} compact role="alert" data-testid="form-error">
            {failure}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('info.cancel')} onClick={onClose} />
            <Button type="submit" intent="primary" icon={<AddIcon />} text={t('add.submit')} loading={form.formState.isSubmitting} data-testid="add-submit" />
          </>
        }
      />
    </form>
  );
}
