import { FormGroup, InputGroup } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { Controller, type Control, type FieldPathByValue, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { clearingEmoji } from '@/lib/clearEmoji';

interface TextFieldProps<F extends FieldValues, V extends FieldValues> {
  control: Control<F, unknown, V>;
  name: FieldPathByValue<F, string>;
  label: string;
  maxLength: number;
  /** The input's id (the field's name unless given); its error text is `${id}-help`. */
  id?: string;
  required?: boolean;
  /** Shown under the field while it has no error. */
  hint?: ReactNode;
  inputMode?: 'numeric';
  autoComplete?: string;
  className?: string;
  testId?: string;
  /** Shown but not editable (a field the caller may not change). */
  disabled?: boolean;
}

/** A one-line text field of a device form: label, its error as the user types, accessible names. */
export function TextField<F extends FieldValues, V extends FieldValues>({
  control,
  name,
  label,
  maxLength,
  id = name,
  required = false,
  hint,
  inputMode,
  autoComplete,
  className,
  testId,
  disabled = false,
}: TextFieldProps<F, V>) {
  const { t } = useTranslation('devices');
  return (
    <Controller
      name={name}
      control={control}
      render={({ field: { ref, ...field }, fieldState }) => (
        <FormGroup
          label={label}
          labelFor={id}
          labelInfo={required ? t('info.required') : undefined}
          intent={fieldState.error ? 'danger' : 'none'}
          helperText={fieldState.error ? <span id={`${id}-help`}>{fieldState.error.message}</span> : hint}
        >
          <InputGroup
            {...field}
            onChange={clearingEmoji(field.onChange)}
            id={id}
            inputRef={ref}
            maxLength={maxLength}
            inputMode={inputMode}
            className={className}
            autoComplete={autoComplete}
            intent={fieldState.error ? 'danger' : 'none'}
            aria-invalid={fieldState.error ? true : undefined}
            aria-describedby={fieldState.error ? `${id}-help` : undefined}
            disabled={disabled}
            data-testid={testId}
          />
        </FormGroup>
      )}
    />
  );
}
