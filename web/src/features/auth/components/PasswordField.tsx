import { Button, Tooltip } from '@blueprintjs/core';
import { EyeOffIcon, EyeOpenIcon, LockIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import type { FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TextField, type TextFieldProps } from './TextField';

/** A password input; the eye button shows or hides what was typed. */
export type PasswordFieldProps<V extends FieldValues> = Omit<TextFieldProps<V>, 'type' | 'rightElement' | 'leftIcon'>;

/** A password input with a show/hide toggle. */
export function PasswordField<V extends FieldValues>(props: PasswordFieldProps<V>) {
  const { t } = useTranslation('auth');
  const [visible, setVisible] = useState(false);
  const label = visible ? t('password.hide') : t('password.show');
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      leftIcon={<LockIcon />}
      rightElement={
        <Tooltip content={label} placement="top" compact>
          <Button
            variant="minimal"
            icon={visible ? <EyeOffIcon /> : <EyeOpenIcon />}
            aria-label={label}
            aria-pressed={visible}
            onClick={() => setVisible((shown) => !shown)}
          />
        </Tooltip>
      }
    />
  );
}
