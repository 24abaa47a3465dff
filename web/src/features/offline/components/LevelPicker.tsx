import { Callout, FormGroup, HTMLSelect } from '@blueprintjs/core';
import { Controller, useWatch, type Control, type UseFormSetValue } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { editionConfig } from '@/lib/config';
import { useLevelChoices, usePackageChoices } from '../api/offline';
import { serviceTime } from '../content';
import type { RecordForm } from '../recordForm';

interface LevelPickerProps {
  control: Control<RecordForm>;
  setValue: UseFormSetValue<RecordForm>;
  /** The operator may read the catalogue (order.servicePackage:query): without it only counts can be bought. */
  canReadCatalogue: boolean;
  disabled: boolean;
}

/**
 * The level and its service time, chosen in the catalogue of enabled packages (optional: SMS and
 * voice counts alone may be bought). Service times are those priced in the edition's currency, as
 * the server offers them; whether a device's type takes the level, the check says row by row.
 */
export function LevelPicker({ control, setValue, canReadCatalogue, disabled }: LevelPickerProps) {
  const { t } = useTranslation('offline');
  const [packageId, levelId] = useWatch({ control, name: ['packageId', 'levelId'] });
  const packages = usePackageChoices(canReadCatalogue);
  const levels = useLevelChoices(packageId === '' ? null : Number(packageId));
  const currency = editionConfig().currency;
  const level = levels.data?.find((l) => String(l.levelId) === levelId);
  const times = level?.options.filter((o) => o.currency === currency) ?? [];
  const touch = { shouldValidate: true, shouldDirty: true } as const;

  if (!canReadCatalogue) {
    return <Callout compact className="jc-ol-note" data-testid="ol-no-catalogue">{t('form.noCatalogue')}</Callout>;
  }
  return (
    <div className="jc-ol-row">
      <FormGroup label={t('form.package')} labelFor="ol-package" className="jc-ol-cell">
        <Controller name="packageId" control={control} render={({ field: { ref, onChange, ...field } }) => (
          <HTMLSelect {...field} ref={ref} id="ol-package" fill disabled={disabled || packages.isPending} data-testid="ol-package"
            onChange={(e) => {
              onChange(e.currentTarget.value);
              setValue('levelId', '', touch);
              setValue('levelYearId', '', touch);
            }}>
            <option value="">{t('form.noLevel')}</option>
            {packages.data?.map((p) => <option key={p.id} value={p.id}>{p.packageName}</option>)}
          </HTMLSelect>
        )} />
      </FormGroup>
      {/* its error (nothing bought) is the whole content's: the form shows it below the counts */}
      <Controller name="levelId" control={control} render={({ field: { ref, onChange, ...field } }) => (
        <FormGroup label={t('form.level')} labelFor="ol-level" className="jc-ol-cell">
          <HTMLSelect {...field} ref={ref} id="ol-level" fill disabled={disabled || packageId === '' || levels.isPending}
            data-testid="ol-level" onChange={(e) => {
              onChange(e.currentTarget.value);
              setValue('levelYearId', '', touch);
            }}>
            <option value="">{t('form.noLevel')}</option>
            {levels.data?.map((l) => <option key={l.levelId} value={l.levelId}>{l.levelName}</option>)}
          </HTMLSelect>
        </FormGroup>
      )} />
      <Controller name="levelYearId" control={control} render={({ field: { ref, ...field }, fieldState }) => (
        <FormGroup label={t('form.serviceTime')} labelFor="ol-time" className="jc-ol-cell"
          intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message}>
          <HTMLSelect {...field} ref={ref} id="ol-time" fill disabled={disabled || level === undefined} data-testid="ol-time">
            <option value="">{t('form.chooseTime')}</option>
            {times.map((o) => <option key={o.id} value={o.id}>{serviceTime(t, o.timeLength)}</option>)}
          </HTMLSelect>
        </FormGroup>
      )} />
    </div>
  );
}
