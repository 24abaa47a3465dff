import { FormGroup, InputGroup } from '@blueprintjs/core';
import { Controller, type Control, type FieldPathByValue, type FieldValues } from 'react-hook-form';

export interface FieldProps<F extends FieldValues> {
  control: Control<F>;
  name: FieldPathByValue<F, string>;
  label: string;
  maxLength: number;
  type?: 'text' | 'password' | 'email' | 'tel';
  autoComplete?: string;
  /** Shown at the end of the input (the send-code button). */
  rightElement?: React.JSX.Element;
  /** Shown under the field while it has no error. */
  hint?: string | null;
}

/** A labelled one-line input of the account forms, its error under it in red. */
export function Field<F extends FieldValues>({ control, name, label, maxLength, type = 'text', autoComplete, rightElement, hint }: FieldProps<F>) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field: { ref, ...field }, fieldState }) => (
        <FormGroup label={label} labelFor={name} intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message ?? hint}>
          <InputGroup
            {...field}
            id={name}
            inputRef={ref}
            type={type}
            maxLength={maxLength}
            autoComplete={autoComplete}
            intent={fieldState.error ? 'danger' : 'none'}
            rightElement={rightElement}
            aria-invalid={fieldState.error ? true : undefined}
          />
        </FormGroup>
      )}
    />
  );
}
