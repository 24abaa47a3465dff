import { Button, ButtonGroup, FormGroup, InputGroup } from '@blueprintjs/core';
import { SearchIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useRevalidateOnLanguageChange } from '@/hooks/useRevalidateOnLanguageChange';
import { LIVE_VALIDATION } from '@/lib/forms';
import { GRANULARITIES, type Granularity, type StatsRange } from '../api/statistics';
import { choiceOf, QUICK_CHOICES, quickRange, rangeFormSchema } from '../range';

interface RangeFormProps {
  /** The range shown. */
  value: StatsRange;
  /** Today in the zone the server reads days in: the quick choices count back from it. */
  today: string;
  onApply: (range: StatsRange) => void;
}

/**
 * The days and the granularity of the statistics: a quick choice or a granularity applies at once,
 * typed days with Show; the end may not come before the start.
 */
export function RangeForm({ value, today, onApply }: RangeFormProps) {
  const { t } = useTranslation('rechargestats');
  const schema = useMemo(() => rangeFormSchema(t), [t]);
  const form = useForm<StatsRange>({ ...LIVE_VALIDATION, resolver: zodResolver(schema), defaultValues: value });
  const { control, handleSubmit, reset, setValue } = form;
  useRevalidateOnLanguageChange(form);
  // A range applied from elsewhere (a quick choice) is what the fields show.
  useEffect(() => reset(value), [reset, value]);
  const apply = handleSubmit((range) => onApply({ ...range }));
  const granularity = (next: Granularity) => {
    setValue('granularity', next);
    void apply();
  };
  const chosen = choiceOf(value, today);

  const day = (name: 'startDate' | 'endDate') => (
    <Controller name={name} control={control} render={({ field: { ref, ...field }, fieldState }) => (
      <FormGroup label={t(`field.${name}`)} labelFor={`rs-${name}`} className="jc-rs-field"
        intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message}>
        <InputGroup {...field} id={`rs-${name}`} type="date" inputRef={ref} intent={fieldState.error ? 'danger' : 'none'}
          data-testid={`rs-${name}`} />
      </FormGroup>
    )} />
  );

  return (
    <form className="jc-rs-range" onSubmit={(e) => void apply(e)} noValidate data-testid="rs-range">
      <ButtonGroup className="jc-rs-quick" aria-label={t('quick.label')}>
        {QUICK_CHOICES.map((choice) => (
          <Button key={choice} text={t(`quick.${choice}`)} active={chosen === choice} aria-pressed={chosen === choice}
            onClick={() => onApply(quickRange(choice, today))} data-testid={`rs-quick-${choice}`} />
        ))}
      </ButtonGroup>
      <div className="jc-rs-fields">
        {day('startDate')}
        {day('endDate')}
        <FormGroup label={t('field.granularity')} className="jc-rs-field">
          <Controller name="granularity" control={control} render={({ field }) => (
            <ButtonGroup aria-label={t('field.granularity')} fill>
              {GRANULARITIES.map((key) => (
                <Button key={key} text={t(`granularity.${key}`)} active={field.value === key} aria-pressed={field.value === key}
                  onClick={() => granularity(key)} data-testid={`rs-granularity-${key}`} />
              ))}
            </ButtonGroup>
          )} />
        </FormGroup>
        <Button type="submit" intent="primary" icon={<SearchIcon />} text={t('show')} className="jc-rs-show" data-testid="rs-show" />
      </div>
    </form>
  );
}
