import { Button } from '@blueprintjs/core';
import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { CodeSender } from '../hooks/useCodeSender';
import type { Channel, Edition } from '../schemas';
import { CodeField } from './CodeField';
import { ContactField } from './ContactField';
import { FormError } from './FormError';
import { PasswordField } from './PasswordField';

/** A contact and the code sent to it. */
export type ContactCode = FieldValues & { phone: string; email: string; code: string };

/** The fields the body fills: a contact, the code sent to it and a password typed twice. */
export type ContactCodePassword = ContactCode & { accountPassword: string; confirmPassword: string };

export interface ContactCodeFieldsProps<V extends ContactCode> {
  /** The form's control. */
  control: Control<V>;
  /** Which contact the code goes to. */
  channel: Channel;
  /** Decides the phone hint. */
  edition: Edition;
  /** Sends the code and counts down (useCodeSender). */
  sender: CodeSender;
}

/** The contact field and the code field whose button sends the code to it (recover, register, bind). */
export function ContactCodeFields<V extends ContactCode>({
  control,
  channel,
  edition,
  sender,
}: ContactCodeFieldsProps<V>) {
  const { t } = useTranslation('auth');
  return (
    <>
      <ContactField control={control} channel={channel} edition={edition} />
      <CodeField
        control={control}
        name={'code' as FieldPath<V>}
        label={t('field.code')}
        placeholder={t('placeholder.code')}
        onSend={() => void sender.send()}
        remaining={sender.remaining}
        sending={sender.sending}
        sentOnce={sender.sentOnce}
        sentNote={sender.sentNote}
        sendError={sender.sendError}
      />
    </>
  );
}

export interface ContactCodePasswordFieldsProps<V extends ContactCodePassword> extends ContactCodeFieldsProps<V> {
  /** The password field's label: a new password (recover) or the account's (register). */
  passwordLabel: string;
  /** Why the last submit failed, shown above the button; null when it did not. */
  failure: string | null;
  /** The submit button's text. */
  submitText: string;
  /** True while the form is submitted. */
  submitting: boolean;
}

/** The body the recover and register forms share, from the contact to the submit button. */
export function ContactCodePasswordFields<V extends ContactCodePassword>({
  control,
  channel,
  edition,
  sender,
  passwordLabel,
  failure,
  submitText,
  submitting,
}: ContactCodePasswordFieldsProps<V>) {
  const { t } = useTranslation('auth');
  return (
    <>
      <ContactCodeFields control={control} channel={channel} edition={edition} sender={sender} />
      <PasswordField
        control={control}
        name={'accountPassword' as FieldPath<V>}
        label={passwordLabel}
        placeholder={t('placeholder.newPassword')}
        hint={t('hint.password')}
        autoComplete="new-password"
        maxLength={20}
      />
      <PasswordField
        control={control}
        name={'confirmPassword' as FieldPath<V>}
        label={t('field.confirmPassword')}
        placeholder={t('placeholder.confirmPassword')}
        autoComplete="new-password"
        maxLength={20}
      />
      <FormError message={failure} />
      <Button className="jc-auth-submit" type="submit" intent="primary" size="large" fill loading={submitting}>
        {submitText}
      </Button>
    </>
  );
}
