import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, NumericInput, Switch } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, LANGUAGE_NAMES } from '@/lib/i18n';
import { sortError } from '@/lib/serverErrors';
import {
  CURRENCIES, PROMOTION_LIMITS, saveAlertPackage, usePromotionChange, type AlertKind, type AlertPackageAdmin,
} from '../api/promotions';
import { alertFormSchema, type AlertForm } from '../alertForm';

interface AlertPackageDialogProps {
  kind: AlertKind;
  /** The package to edit, a country code to add one to; null: closed. */
  editing: AlertPackageAdmin | { countryCode: string } | null;
  onClose: () => void;
  onSaved: (saved: AlertPackageAdmin) => void;
}

/** Adds or edits an SMS or voice package: country code, name (and per language), fee, currency, count, discount, enabled. */
export function AlertPackageDialog({ kind, editing, onClose, onSaved }: AlertPackageDialogProps) {
  const { t } = useTranslation('promotions');
  const existing = editing && 'packageId' in editing ? editing : null;
  return (
    <Dialog isOpen={editing !== null} onClose={onClose} className="jc-pr-dialog"
      title={existing ? t('alert.editTitle', { name: existing.packageName }) : t(`alert.addTitle${kind}`)}>
      {editing !== null && <AlertFormBody kind={kind} existing={existing}
        countryCode={existing?.countryCode ?? ('countryCode' in editing ? editing.countryCode : '')} onDone={onClose} onSaved={onSaved} />}
    </Dialog>
  );
}

const FIELDS = ['countryCode', 'packageName', 'packageFee', 'currency', 'smsCount', 'discount'] as const;

function AlertFormBody({ kind, existing, countryCode, onDone, onSaved }: { kind: AlertKind; existing: AlertPackageAdmin | null;
  countryCode: string; onDone: () => void; onSaved: (saved: AlertPackageAdmin) => void }) {
  const { t } = useTranslation('promotions');
  const schema = useMemo(() => alertFormSchema(t), [t]);
  const [formError, setFormError] = useState<string | null>(null);
  const save = usePromotionChange((form: AlertForm) => saveAlertPackage({
    kind, countryCode: form.countryCode.trim(), packageName: form.packageName.trim(),
    names: Object.fromEntries(Object.entries(form.names).map(([l, v]) => [l, v.trim()]).filter(([, v]) => v !== '')),
    packageFee: Math.round(form.fee * 100), currency: form.currency, smsCount: form.smsCount, discount: form.discount,
    status: form.enabled ? 1 : 0,
  }, existing?.packageId ?? null));
  const { control, handleSubmit, setError } = useForm<AlertForm>({
    resolver: zodResolver(schema), mode: 'onChange',
    defaultValues: {
      countryCode: existing?.countryCode ?? countryCode, packageName: existing?.defaultName ?? '',
      names: Object.fromEntries(LANGUAGES.map((l) => [l, existing?.names[l] ?? ''])),
      fee: existing ? existing.packageFee / 100 : 0, currency: existing?.currency ?? CURRENCIES[0],
      smsCount: existing?.smsCount ?? 100, discount: existing?.discount ?? 100, enabled: existing ? existing.status === 1 : true,
    },
  });
  const submit = handleSubmit((values) => {
    setFormError(null);
    save.mutate(values, {
      onSuccess: (saved) => {
        onSaved(saved);
        onDone();
      },
      onError: (error) => {
        const sorted = sortError(error, [...FIELDS], {}, t);
        for (const [name, message] of Object.entries(sorted.fields)) {
          if (message) setError(name === 'packageFee' ? 'fee' : (name as keyof AlertForm), { type: 'server', message });
        }
        setFormError(sorted.form);
      },
    });
  });
  const number = (name: 'fee' | 'smsCount' | 'discount', extra: { min?: number; max?: number; step?: number } = {}) => (
    <Controller name={name} control={control} render={({ field, fieldState }) => (
      <FormGroup label={t(`alertField.${name}`)} labelFor={`pr-alert-${name}`} intent={fieldState.error ? 'danger' : 'none'}
        helperText={fieldState.error?.message}>
        <NumericInput id={`pr-alert-${name}`} fill value={field.value} min={extra.min} max={extra.max}
          stepSize={extra.step ?? 1} minorStepSize={extra.step ? 0.01 : null}
          onValueChange={(value) => field.onChange(value)} intent={fieldState.error ? 'danger' : 'none'}
          data-testid={`pr-alert-${name}`} />
      </FormGroup>
    )} />
  );
  return (
    <form onSubmit={(e) => void submit(e)} data-testid="pr-alert-form">
      <DialogBody>
        <div className="jc-pr-pair">
          <Controller name="countryCode" control={control} render={({ field: { ref, ...field }, fieldState }) => (
            <FormGroup label={t('alertField.countryCode')} labelFor="pr-alert-country" labelInfo={t('required')}
              intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message ?? t('hint.countryCode')}>
              <InputGroup {...field} id="pr-alert-country" inputRef={ref} leftElement={<span className="jc-pr-plus">+</span>}
                inputMode="numeric" maxLength={4} intent={fieldState.error ? 'danger' : 'none'} data-testid="pr-alert-country" />
            </FormGroup>
          )} />
          <Controller name="packageName" control={control} render={({ field: { ref, ...field }, fieldState }) => (
            <FormGroup label={t('alertField.packageName')} labelFor="pr-alert-name" labelInfo={t('required')}
              intent={fieldState.error ? 'danger' : 'none'}
              helperText={fieldState.error?.message ?? t('hint.name', { max: PROMOTION_LIMITS.name })}>
              <InputGroup {...field} id="pr-alert-name" inputRef={ref} intent={fieldState.error ? 'danger' : 'none'}
                data-testid="pr-alert-name" />
            </FormGroup>
          )} />
        </div>
        <FormGroup label={t('field.names')} helperText={t('hint.names')}>
          <div className="jc-pr-names">
            {LANGUAGES.map((language) => (
              <Controller key={language} name={`names.${language}`} control={control}
                render={({ field: { ref, ...field }, fieldState }) => (
                  <FormGroup label={LANGUAGE_NAMES[language]} labelFor={`pr-alert-name-${language}`} className="jc-pr-name"
                    intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message}>
                    <InputGroup {...field} value={field.value ?? ''} id={`pr-alert-name-${language}`} inputRef={ref} lang={language}
                      intent={fieldState.error ? 'danger' : 'none'} />
                  </FormGroup>
                )} />
            ))}
          </div>
        </FormGroup>
        <div className="jc-pr-pair">
          {number('fee', { min: 0, step: 1 })}
          <Controller name="currency" control={control} render={({ field }) => (
            <FormGroup label={t('alertField.currency')} labelFor="pr-alert-currency">
              <HTMLSelect id="pr-alert-currency" fill value={field.value} onChange={(e) => field.onChange(e.currentTarget.value)}
                data-testid="pr-alert-currency">
                {CURRENCIES.map((c) => <option key={c} value={c}>{c}</option>)}
              </HTMLSelect>
            </FormGroup>
          )} />
        </div>
        <div className="jc-pr-pair">
          {number('smsCount', { min: 1 })}
          {number('discount', { min: 1, max: 100 })}
        </div>
        <Controller name="enabled" control={control} render={({ field }) => (
          <Switch checked={field.value} label={t('alertField.enabled')} onChange={(e) => field.onChange(e.currentTarget.checked)}
            data-testid="pr-alert-enabled" />
        )} />
        {formError && <Callout intent="danger" data-testid="pr-alert-error">{formError}</Callout>}
      </DialogBody>
      <DialogFooter actions={<>
        <Button text={t('cancel')} onClick={onDone} />
        <Button type="submit" intent="primary" text={t('save')} loading={save.isPending} data-testid="pr-alert-save" />
      </>} />
    </form>
  );
}
