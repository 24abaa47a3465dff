import { Button } from '@blueprintjs/core';
import { ShieldIcon } from '@blueprintjs/icons';
import type { FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TextField, type TextFieldProps } from './TextField';

/** The code input with its "send code" button and countdown. */
export interface CodeFieldProps<V extends FieldValues> extends Omit<TextFieldProps<V>, 'rightElement' | 'hint' | 'hintIntent'> {
  /** Asks the server to send a code. */
  onSend: () => void;
  /** Seconds before another code may be asked for (0: now). */
  remaining: number;
  /** A code is being asked for. */
  sending: boolean;
  /** A code was sent: the line under the input. */
  sentNote?: string | null;
  /** Why the last code could not be sent. */
  sendError?: string | null;
  /** A code has been asked for at least once (the button then reads "send again"). */
  sentOnce: boolean;
}

/** The received code, with a button that sends it and then counts down 60 s. */
export function CodeField<V extends FieldValues>({
  onSend,
  remaining,
  sending,
  sentNote,
  sendError,
  sentOnce,
  ...props
}: CodeFieldProps<V>) {
  const { t } = useTranslation('auth');
  const text = remaining > 0 ? t('code.wait', { seconds: remaining }) : sentOnce ? t('code.resend') : t('code.send');
  return (
    <div className="jc-auth-code">
      <TextField
        {...props}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={8}
        leftIcon={<ShieldIcon />}
        hint={sendError ?? sentNote ?? null}
        hintIntent={sendError ? 'danger' : 'success'}
        rightElement={
          <Button
            className="jc-auth-send"
            variant="minimal"
            intent="primary"
            disabled={remaining > 0}
            loading={sending}
            onClick={onSend}
            aria-live="polite"
          >
            {text}
          </Button>
        }
      />
    </div>
  );
}
