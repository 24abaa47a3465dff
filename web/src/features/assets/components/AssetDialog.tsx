import { Button, Callout, Classes, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, TextArea } from '@blueprintjs/core';
import { AddIcon, CrossIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { Controller, useFieldArray, useForm, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ASSET_LIMITS, useSaveAsset, type Asset, type AssetDetail } from '../api/assets';
import { assetFormSchema, type AssetForm } from '../assetForm';
import { showError } from '@/lib/serverErrors';
import { MINE, OwnerSelect, ownerId } from '@/components/OwnerSelect';

interface AssetDialogProps {
  /** The asset to edit, 'new' to make one; null: closed. */
  asset: Asset | 'new' | null;
  onClose: () => void;
  onSaved?: (asset: AssetDetail) => void;
}

const SHORT_FIELDS = ['assetType', 'assetNumber', 'brand', 'model', 'volume'] as const;
const SERVER_FIELDS = ['assetName', ...SHORT_FIELDS, 'remark'] as const;

/** Makes an asset or edits its particulars and custom attributes. */
export function AssetDialog({ asset, onClose, onSaved }: AssetDialogProps) {
  const { t } = useTranslation('assets');
  return (
    <Dialog isOpen={asset !== null} onClose={onClose} className="jc-as-dialog"
      title={t(asset === 'new' ? 'addTitle' : 'editTitle')}>
      {asset !== null && <AssetFormBody asset={asset === 'new' ? null : asset} onDone={onClose} onSaved={onSaved} />}
    </Dialog>
  );
}

function TextField({ control, name, label, required, autoFocus }: { control: Control<AssetForm>;
  name: 'assetName' | (typeof SHORT_FIELDS)[number]; label: string; required?: boolean; autoFocus?: boolean }) {
  const { t } = useTranslation('assets');
  return (
    <Controller name={name} control={control} render={({ field: { ref, ...field }, fieldState }) => (
      <FormGroup label={label} labelFor={`asset-${name}`} labelInfo={required ? t('required') : undefined}
        intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message}>
        <InputGroup {...field} id={`asset-${name}`} inputRef={ref} autoFocus={autoFocus}
          intent={fieldState.error ? 'danger' : 'none'} data-testid={`asset-${name}`} />
      </FormGroup>
    )} />
  );
}

function AssetFormBody({ asset, onDone, onSaved }: { asset: Asset | null; onDone: () => void;
  onSaved?: (asset: AssetDetail) => void }) {
  const { t } = useTranslation('assets');
  const schema = useMemo(() => assetFormSchema(t), [t]);
  const save = useSaveAsset();
  // A new asset is the caller's own or one of an organization where it changes the devices.
  const [owner, setOwner] = useState(MINE);
  const [formError, setFormError] = useState<string | null>(null);
  const { control, handleSubmit, setError, formState } = useForm<AssetForm>({
    resolver: zodResolver(schema), mode: 'onChange',
    defaultValues: {
      assetName: asset?.assetName ?? '', assetType: asset?.assetType ?? '', assetNumber: asset?.assetNumber ?? '',
      brand: asset?.brand ?? '', model: asset?.model ?? '', volume: asset?.volume ?? '',
      customs: asset?.customs ?? [], remark: asset?.remark ?? '',
    },
  });
  const customs = useFieldArray({ control, name: 'customs' });
  const submit = handleSubmit((values) => {
    setFormError(null);
    const fields = {
      assetName: values.assetName, assetType: values.assetType || null, assetNumber: values.assetNumber || null,
      brand: values.brand || null, model: values.model || null, volume: values.volume || null,
      customs: values.customs.map((pair) => ({ key: pair.key, value: pair.value })), remark: values.remark || null,
      ...(asset === null ? { organizationId: ownerId(owner) } : {}),
    };
    save.mutate({ fields, id: asset?.id }, {
      onSuccess: (saved) => {
        onSaved?.(saved);
        onDone();
      },
      // The server's refusal of a field shows under that field; one of the custom attributes (a
      // list, with no one field to hold it) for the whole form.
      onError: (error) => setFormError(showError(error, setError, SERVER_FIELDS, {}, t)),
    });
  });
  const customsError = formState.errors.customs?.root?.message ?? formState.errors.customs?.message;
  return (
    <form onSubmit={(e) => void submit(e)} data-testid="asset-form">
      <DialogBody>
        {asset === null && (
          <OwnerSelect id="asset-owner" value={owner} onChange={setOwner} label={t('field.owner')} hint={t('ownerHint')}
            mineLabel={t('ownerMine')} />
        )}
        {asset?.organizationName && <p className={Classes.TEXT_MUTED} data-testid="asset-owner-name">{asset.organizationName}</p>}
        <TextField control={control} name="assetName" label={t('field.name')} required autoFocus />
        <div className="jc-as-grid">
          <TextField control={control} name="assetType" label={t('field.type')} />
          <TextField control={control} name="assetNumber" label={t('field.number')} />
          <TextField control={control} name="brand" label={t('field.brand')} />
          <TextField control={control} name="model" label={t('field.model')} />
          <TextField control={control} name="volume" label={t('field.volume')} />
        </div>
        <FormGroup label={t('field.customs')} intent={customsError ? 'danger' : 'none'} helperText={customsError}>
          <div className="jc-as-customs" data-testid="asset-customs">
            {customs.fields.map((row, index) => (
              <div key={row.id} className="jc-as-custom-row" data-testid="asset-custom-row">
                <Controller name={`customs.${index}.key`} control={control} render={({ field: { ref, ...field }, fieldState }) => (
                  <FormGroup intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message}>
                    <InputGroup {...field} inputRef={ref} placeholder={t('field.key')} aria-label={t('field.key')}
                      intent={fieldState.error ? 'danger' : 'none'} data-testid="asset-custom-key" />
                  </FormGroup>
                )} />
                <Controller name={`customs.${index}.value`} control={control} render={({ field: { ref, ...field }, fieldState }) => (
                  <FormGroup intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message}>
                    <InputGroup {...field} inputRef={ref} placeholder={t('field.value')} aria-label={t('field.value')}
                      intent={fieldState.error ? 'danger' : 'none'} data-testid="asset-custom-value" />
                  </FormGroup>
                )} />
                <Button variant="minimal" icon={<CrossIcon />} aria-label={t('removeCustom')} title={t('removeCustom')}
                  onClick={() => customs.remove(index)} data-testid="asset-custom-remove" />
              </div>
            ))}
            <Button variant="outlined" icon={<AddIcon />} text={t('addCustom')} alignText="start"
              disabled={customs.fields.length >= ASSET_LIMITS.attributes}
              onClick={() => customs.append({ key: '', value: '' })} data-testid="asset-custom-add" />
          </div>
        </FormGroup>
        <Controller name="remark" control={control} render={({ field: { ref, ...field }, fieldState }) => (
          <FormGroup label={t('field.remark')} labelFor="asset-remark" intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message}>
            <TextArea {...field} id="asset-remark" inputRef={ref} fill rows={2} data-testid="asset-remark" />
          </FormGroup>
        )} />
        {formError && <Callout intent="danger" data-testid="asset-form-error">{formError}</Callout>}
      </DialogBody>
      <DialogFooter actions={<>
        <Button text={t('cancel')} onClick={onDone} />
        <Button type="submit" intent="primary" text={t('save')} loading={save.isPending} data-testid="asset-save" />
      </>} />
    </form>
  );
}
