import { EnvelopeIcon, MobilePhoneIcon } from '@blueprintjs/icons';
import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { Channel, Edition } from '../schemas';
import { TextField } from './TextField';

/** Props of the phone-or-e-mail input. */
export interface ContactFieldProps<V extends FieldValues & { phone: string; email: string }> {
  /** The form's control. */
  control: Control<V>;
  /** Which of the two is asked for. */
  channel: Channel;
  /** Decides the phone hint (mainland mobile number, or digits only). */
  edition: Edition;
}

/** The phone number (field `phone`) or e-mail address (field `email`) a code is sent to. */
export function ContactField<V extends FieldValues & { phone: string; email: string }>({
  control,
  channel,
  edition,
}: ContactFieldProps<V>) {
  const { t } = useTranslation('auth');
  if (channel === 'phone') {
    return (
      <TextField
        key="phone"
        control={control}
        name={'phone' as FieldPath<V>}
        label={t('field.phone')}
        placeholder={t(edition === 'domestic' ? 'placeholder.phoneDomestic' : 'placeholder.phoneInternational')}
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        leftIcon={<MobilePhoneIcon />}
        maxLength={edition === 'domestic' ? 11 : 15}
      />
    );
  }
  return (
    <TextField
      key="email"
      control={control}
      name={'email' as FieldPath<V>}
      label={t('field.email')}
      placeholder={t('placeholder.email')}
      type="email"
      inputMode="email"
      autoComplete="email"
      leftIcon={<EnvelopeIcon />}
      maxLength={200}
    />
  );
}
