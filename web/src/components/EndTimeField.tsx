import { Button, ButtonGroup, FormGroup, InputGroup } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { END_TIME_CHOICES, endTimeIn } from '@/lib/shareForm';
import './endTime.css';

export interface EndTimeFieldProps {
  /** A datetime-local value, '' for never. */
  value: string;
  onChange: (value: string) => void;
  /** The input's id (its label points at it). */
  id: string;
  /** The message of a refused value. */
  error?: string;
}

/** When a share ends: a moment, or one of the quick choices (1, 7 or 30 days from now, never). */
export function EndTimeField({ value, onChange, id, error }: EndTimeFieldProps) {
  const { t } = useTranslation('devices');
  return (
    <FormGroup label={t('sharing.endTime')} labelFor={id} labelInfo={t('info.optional')} intent={error ? 'danger' : 'none'}
      helperText={error ?? (value ? undefined : t('sharing.endNever'))}>
      <div className="jc-end-time">
        <InputGroup id={id} type="datetime-local" value={value} onChange={(event) => onChange(event.currentTarget.value)}
          intent={error ? 'danger' : 'none'} data-testid="share-end-time" />
        <ButtonGroup variant="outlined" className="jc-end-time-choices">
          {END_TIME_CHOICES.map((days) => (
            <Button key={days ?? 'never'} size="small" text={days === null ? t('sharing.never') : t('sharing.days', { count: days })}
              active={days === null && !value} onClick={() => onChange(endTimeIn(days))} data-testid={`share-end-${days ?? 'never'}`} />
          ))}
        </ButtonGroup>
      </div>
    </FormGroup>
  );
}
