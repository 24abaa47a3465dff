import { Button, Callout, Checkbox, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, Tag } from '@blueprintjs/core';
import { AddIcon, CrossIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { editionConfig } from '@/lib/config';
import { ApiError } from '@/lib/http/index';
import { saveLevel, useCatalogueChange, type Item, type Level, type LevelFields } from '../api/packages';
import { CURRENCIES, fromCents, levelFormSchema, namesForForm, namesForServer, toCents, type LevelForm } from '../packageForm';
import { NamesGrid } from './NamesGrid';

interface LevelDialogProps {
  packageId: number;
  /** The level to edit, 'new' to add one; null: closed. */
  level: Level | 'new' | null;
  items: Item[];
  onClose: () => void;
}

/** A level: its names side by side, its items, its duration rows (months, service and data fee,
 * currency, discount, recommended). A sold row's new price makes a new row; the old one stays sold. */
export function LevelDialog({ packageId, level, items, onClose }: LevelDialogProps) {
  const { t } = useTranslation('catalogue');
  return (
    <Dialog isOpen={level !== null} onClose={onClose} className="jc-cat-dialog"
      title={t(level === 'new' ? 'levels.addTitle' : 'levels.editTitle')}>
      {level !== null && <LevelFormBody packageId={packageId} level={level === 'new' ? null : level} items={items}
        onDone={onClose} />}
    </Dialog>
  );
}

function LevelFormBody({ packageId, level, items, onDone }: { packageId: number; level: Level | null; items: Item[];
  onDone: () => void }) {
  const { t } = useTranslation('catalogue');
  const config = editionConfig();
  const schema = useMemo(() => levelFormSchema(t, config.defaultLanguage), [t, config.defaultLanguage]);
  const save = useCatalogueChange(({ fields }: { fields: LevelFields }) =>
    saveLevel(fields, level ? { levelId: level.levelId } : { packageId }));
  const [formError, setFormError] = useState<string | null>(null);
  const { control, handleSubmit, setError, formState } = useForm<LevelForm>({
    resolver: zodResolver(schema), mode: 'onChange',
    defaultValues: {
      names: namesForForm(level?.names ?? {}),
      itemCodes: level?.itemCodes ?? [],
      options: level?.options.map((o) => ({ id: o.id, sold: o.sold, timeLength: String(o.timeLength),
        serviceFee: fromCents(o.serviceFee), dataFee: fromCents(o.dataFee), currency: o.currency as 'CNY',
        discount: String(o.discount), topStatus: o.topStatus }))
        ?? [{ sold: false, timeLength: '12', serviceFee: '', dataFee: '0', currency: config.currency as 'CNY',
          discount: '100', topStatus: false }],
    },
  });
  const rows = useFieldArray({ control, name: 'options' });
  const submit = handleSubmit((values) => {
    setFormError(null);
    const fields: LevelFields = {
      names: namesForServer(values.names, true),
      itemCodes: values.itemCodes,
      options: values.options.map((o) => ({ ...(o.id !== undefined ? { id: o.id } : {}), timeLength: Number(o.timeLength),
        serviceFee: toCents(o.serviceFee), dataFee: toCents(o.dataFee), currency: o.currency,
        discount: Number(o.discount), topStatus: o.topStatus })),
    };
    save.mutate({ fields }, {
      onSuccess: onDone,
      onError: (error) => {
        if (error instanceof ApiError && error.errors) {
          for (const [name, messages] of Object.entries(error.errors)) setError(name as never, { type: 'server', message: messages[0] });
        }
        setFormError(error instanceof Error ? error.message : t('packages.failed'));
      },
    });
  });
  const optionsError = formState.errors.options?.root?.message ?? formState.errors.options?.message;
  return (
    <form onSubmit={(e) => void submit(e)} data-testid="level-form">
      <DialogBody>
        <FormGroup label={t('levels.names')}>
          <NamesGrid control={control} field="names" withDescription defaultLanguage={config.defaultLanguage}
            testId="level-names" />
        </FormGroup>
        <FormGroup label={t('levels.durations')} intent={optionsError ? 'danger' : 'none'} helperText={optionsError}>
          <div className="jc-cat-rows" data-testid="level-rows">
            <div className="jc-cat-row jc-cat-row-head" aria-hidden>
              <span>{t('levels.monthsLabel')}</span><span>{t('levels.currency')}</span><span>{t('levels.serviceFee')}</span>
              <span>{t('levels.dataFee')}</span><span>{t('levels.discount')}</span><span>{t('levels.recommended')}</span><span />
            </div>
            {rows.fields.map((row, index) => (
              <div key={row.id} className="jc-cat-row" data-testid="level-row">
                {(['timeLength', 'currency', 'serviceFee', 'dataFee', 'discount'] as const).map((name) => (
                  <Controller key={name} name={`options.${index}.${name}`} control={control}
                    render={({ field, fieldState }) => (
                      <div className="jc-cat-cell">
                        <span className="jc-cat-cell-label" aria-hidden>
                          {t(`levels.${name === 'timeLength' ? 'monthsLabel' : name}`)}
                        </span>
                        {name === 'currency' ? (
                          <HTMLSelect {...field} options={[...CURRENCIES]} aria-label={t('levels.currency')} fill
                            data-testid={`level-row-${name}`} />
                        ) : (
                          <InputGroup {...field} inputRef={field.ref} inputMode="decimal" aria-label={t(`levels.${name === 'timeLength' ? 'monthsLabel' : name}`)}
                            intent={fieldState.error ? 'danger' : 'none'} data-testid={`level-row-${name}`} />
                        )}
                        {fieldState.error && <small className="jc-cat-error">{fieldState.error.message}</small>}
                      </div>
                    )} />
                ))}
                <Controller name={`options.${index}.topStatus`} control={control} render={({ field }) => (
                  <Checkbox checked={field.value} onChange={(e) => field.onChange(e.currentTarget.checked)}
                    aria-label={t('levels.recommended')} data-testid="level-row-top"
                    labelElement={<span className="jc-cat-cell-label">{t('levels.recommended')}</span>} />
                )} />
                <span className="jc-cat-cell">
                  {row.sold && <Tag minimal title={t('levels.soldRow')}>{t('levels.sold')}</Tag>}
                  <Button variant="minimal" icon={<CrossIcon />} aria-label={t('levels.removeRow')}
                    onClick={() => rows.remove(index)} data-testid="level-row-remove" />
                </span>
              </div>
            ))}
            <Button variant="outlined" icon={<AddIcon />} text={t('levels.addRow')} alignText="start"
              onClick={() => rows.append({ sold: false, timeLength: '', serviceFee: '', dataFee: '0',
                currency: config.currency as 'CNY', discount: '100', topStatus: false })} data-testid="level-row-add" />
          </div>
        </FormGroup>
        <Controller name="itemCodes" control={control} render={({ field }) => (
          <FormGroup label={t('levels.items')}>
            <div className="jc-cat-types" data-testid="level-items">
              {items.map((item) => (
                <Checkbox key={item.itemCode} label={item.itemName} checked={field.value.includes(item.itemCode)}
                  onChange={(e) => field.onChange(e.currentTarget.checked ? [...field.value, item.itemCode]
                    : field.value.filter((code) => code !== item.itemCode))} />
              ))}
            </div>
          </FormGroup>
        )} />
        {formError && <Callout intent="danger" data-testid="level-form-error">{formError}</Callout>}
      </DialogBody>
      <DialogFooter actions={<>
        <Button text={t('cancel')} onClick={onDone} />
        <Button type="submit" intent="primary" text={t('save')} loading={save.isPending} data-testid="level-save" />
      </>} />
    </form>
  );
}
