import { FormGroup, InputGroup } from '@blueprintjs/core';
import type { HTMLInputAutoCompleteAttribute, HTMLInputTypeAttribute, JSX } from 'react';
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { clearingEmoji } from '@/lib/clearEmoji';

/** A text input of a react-hook-form form, drawn as a Blueprint FormGroup with its error. */
export interface TextFieldProps<V extends FieldValues> {
  /** The form's control. */
  control: Control<V>;
  /** The field; also the input's id. */
  name: FieldPath<V>;
  /** The visible label. */
  label: string;
  /** Input type (text, password, tel, email). */
  type?: HTMLInputTypeAttribute;
  /** Browser autofill hint. */
  autoComplete?: HTMLInputAutoCompleteAttribute;
  /** The on-screen keyboard to offer on phones. */
  inputMode?: 'text' | 'tel' | 'email' | 'numeric';
  /** Greyed example text. */
  placeholder?: string;
  /** Icon inside the input, on the left. */
  leftIcon?: JSX.Element;
  /** A button or tag inside the input, on the right. */
  rightElement?: JSX.Element;
  /** Something that sits beside the input, outside it (the captcha's picture), at its height. */
  beside?: JSX.Element;
  /** Shown under the input when there is no error (a hint, or a note such as "code sent"). */
  hint?: string | null;
  /** Colours the hint (a "code sent" note, or why the code could not be sent). */
  hintIntent?: 'none' | 'success' | 'danger';
  /** Limits what can be typed. */
  maxLength?: number;
  /** Focus this field when the page opens. */
  autoFocus?: boolean;
  /** A name: drops emoji as typed (the spec's clear-emoji directive). */
  plainText?: boolean;
}

/** One labelled input with its validation or server message underneath. */
export function TextField<V extends FieldValues>({
  control,
  name,
  label,
  type = 'text',
  autoComplete,
  inputMode,
  placeholder,
  leftIcon,
  rightElement,
  beside,
  hint,
  hintIntent = 'none',
  maxLength,
  autoFocus,
  plainText = false,
}: TextFieldProps<V>) {
  const helpId = `${name}-help`;
  return (
    <Controller
      name={name}
      control={control}
      render={({ field: { ref, ...field }, fieldState }) => {
        const helper = fieldState.error?.message ?? hint ?? undefined;
        const intent = fieldState.error ? 'danger' : hint ? hintIntent : 'none';
        const input = (
          <InputGroup
            {...field}
            onChange={plainText ? clearingEmoji(field.onChange) : field.onChange}
            id={name}
            inputRef={ref}
            type={type}
            size="large"
            autoComplete={autoComplete}
            inputMode={inputMode}
            placeholder={placeholder}
            leftIcon={leftIcon}
            rightElement={rightElement}
            maxLength={maxLength}
            autoFocus={autoFocus}
            intent={fieldState.error ? 'danger' : 'none'}
            aria-invalid={fieldState.error ? true : undefined}
            aria-describedby={helper ? helpId : undefined}
          />
        );
        return (
          <FormGroup
            label={label}
            labelFor={name}
            intent={intent}
            helperText={helper ? <span id={helpId}>{helper}</span> : undefined}
          >
            {beside ? (
              <div className="jc-auth-input-beside">
                {input}
                {beside}
              </div>
            ) : (
              input
            )}
          </FormGroup>
        );
      }}
    />
  );
}
