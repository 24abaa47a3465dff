import { FormGroup, HTMLSelect, InputGroup, TextArea } from '@blueprintjs/core';
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';

export interface FieldProps<V extends FieldValues> {
  /** The form's control. */
  control: Control<V>;
  /** The field; its id and test id derive from it. */
  name: FieldPath<V>;
  /** The visible label. */
  label: string;
  /** Marks the label as required. */
  required?: string;
  /** A hint under the input when there is no error. */
  hint?: string;
  /** A long text (remarks, explanation). */
  multiline?: boolean;
  /** A choice among these values (label, value). */
  options?: { value: string; label: string }[];
  /** The on-screen keyboard to offer on phones (decimal for measured values). */
  inputMode?: 'text' | 'decimal';
  /** An input type other than text (date). */
  type?: 'text' | 'date' | 'password';
  /** Extra class on the group (the points' grid cells). */
  className?: string;
}

/** One labelled input of a react-hook-form form, its validation or server message under it. */
export function Field<V extends FieldValues>({ control, name, label, required, hint, multiline, options, inputMode,
  type = 'text', className }: FieldProps<V>) {
  const id = `cl-${name.replace(/\./g, '-')}`;
  return (
    <Controller name={name} control={control} render={({ field: { ref, value, ...field }, fieldState }) => {
      const intent = fieldState.error ? 'danger' : 'none';
      const props = { ...field, id, 'data-testid': id, value: (value ?? '') as string };
      return (
        <FormGroup className={className} label={label} labelFor={id} labelInfo={required} intent={intent}
          helperText={fieldState.error?.message ?? hint}>
          {options ? (
            <HTMLSelect {...props} ref={ref} fill options={options} />
          ) : multiline ? (
            <TextArea {...props} inputRef={ref} fill autoResize intent={intent} />
          ) : (
            <InputGroup {...props} inputRef={ref} type={type} inputMode={inputMode} intent={intent} />
          )}
        </FormGroup>
      );
    }} />
  );
}
