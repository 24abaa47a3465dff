import { FormGroup, InputGroup, TextArea } from '@blueprintjs/core';
import { Controller, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { ConfigField } from '../api/payConfig';
import type { ConfigValues } from '../configForm';
import { mustFill } from '../configForm';
import { fieldHelp, fieldLabel } from '../labels';

interface ConfigFieldInputProps {
  field: ConfigField;
  control: Control<ConfigValues>;
  disabled: boolean;
}

/**
 * One field of a configuration: a line, or a box for a key or certificate (multiline). A secret is
 * never shown: the field says whether one is stored and how it ends, and its input replaces it.
 */
export function ConfigFieldInput({ field, control, disabled }: ConfigFieldInputProps) {
  const { t } = useTranslation('platforms');
  const id = `pc-field-${field.name}`;
  const help = fieldHelp(t, field.name);
  const stored = field.set === true;
  const secretState = field.secret && (
    <span className="jc-pf-secret" data-testid={`pc-secret-${field.name}`} data-set={stored}>
      {stored ? t('secret.set', { last4: field.last4 ?? '' }) : t('secret.notSet')}
    </span>
  );
  return (
    <Controller name={field.name} control={control} render={({ field: { ref, ...input }, fieldState }) => {
      const intent = fieldState.error ? 'danger' : 'none';
      const placeholder = field.secret ? (stored ? t('secret.keep') : t('secret.enter')) : undefined;
      const common = {
        ...input, id, disabled, intent, placeholder, 'data-testid': id, 'aria-invalid': fieldState.error ? true : undefined,
      } as const;
      return (
        <FormGroup label={fieldLabel(t, field.name)} labelFor={id} intent={intent}
          labelInfo={mustFill(field) ? t('form.requiredMark') : undefined}
          helperText={fieldState.error?.message ?? (help || undefined)}>
          {secretState}
          {field.multiline ? (
            <TextArea {...common} inputRef={ref} fill rows={4} className="jc-pf-mono" spellCheck={false} autoComplete="off" />
          ) : (
            <InputGroup {...common} inputRef={ref} type={field.secret ? 'password' : 'text'} spellCheck={false}
              autoComplete={field.secret ? 'new-password' : 'off'} className={field.secret ? undefined : 'jc-pf-mono'} />
          )}
        </FormGroup>
      );
    }} />
  );
}
