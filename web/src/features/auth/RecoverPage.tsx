import { SegmentedControl } from '@blueprintjs/core';
import { EnvelopeIcon, MobilePhoneIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { editionConfig } from '@/lib/config';
import { notify } from '@/lib/notify';
import { useForgot, type ForgotBody } from './api/forgot';
import { CODE_TYPES } from '@/lib/api/sendCode';
import { AuthShell } from './components/AuthShell';
import { ContactCodePasswordFields } from './components/ContactCodePasswordFields';
import { useCodeSender } from './hooks/useCodeSender';
import { useRevalidateOnLanguageChange } from '@/hooks/useRevalidateOnLanguageChange';
import { recoverSchema, type Channel, type RecoverForm } from './schemas';
import { BUSINESS, showError } from '@/lib/serverErrors';
import { LIVE_VALIDATION } from '@/lib/forms';

const FIELDS = ['phone', 'email', 'code', 'accountPassword', 'confirmPassword'] as const;

/** Forgot password: a code to the phone or e-mail, then a new password; back to the login page. */
export default function RecoverPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const edition = editionConfig().edition;
  const [channel, setChannel] = useState<Channel>(edition === 'domestic' ? 'phone' : 'email');
  const resolver = useMemo(() => zodResolver(recoverSchema(t, edition, channel)), [t, edition, channel]);
  const form = useForm<RecoverForm>({
    ...LIVE_VALIDATION,
    resolver,
    defaultValues: { phone: '', email: '', code: '', accountPassword: '', confirmPassword: '' },
  });
  useRevalidateOnLanguageChange(form);
  const sender = useCodeSender(form, channel, CODE_TYPES.recover);
  const forgot = useForgot();
  const [failure, setFailure] = useState<string | null>(null);

  const choose = (value: string) => {
    const next: Channel = value === 'email' ? 'email' : 'phone';
    if (next === channel) return;
    setFailure(null);
    form.clearErrors();
    form.setValue('code', '');
    setChannel(next);
  };

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const base = { code: values.code, accountPassword: values.accountPassword };
    const body: ForgotBody = channel === 'phone' ? { ...base, phone: values.phone } : { ...base, email: values.email };
    try {
      await forgot.mutateAsync(body);
      notify.success(t('recover.success'));
      navigate('/user/login', { replace: true });
    } catch (error) {
      setFailure(showError(error, form.setError, FIELDS, { [BUSINESS.wrongCode]: 'code' }, t));
    }
  });

  return (
    <AuthShell title={t('recover.title')} subtitle={t(channel === 'phone' ? 'recover.subtitlePhone' : 'recover.subtitleEmail')}>
      <SegmentedControl
        className="jc-auth-channel"
        fill
        aria-label={t('recover.channel')}
        value={channel}
        onValueChange={choose}
        options={[
          { value: 'phone', label: t('recover.byPhone'), icon: <MobilePhoneIcon /> },
          { value: 'email', label: t('recover.byEmail'), icon: <EnvelopeIcon /> },
        ]}
      />
      <form onSubmit={submit} noValidate aria-label={t('recover.title')}>
        <ContactCodePasswordFields
          control={form.control}
          channel={channel}
          edition={edition}
          sender={sender}
          passwordLabel={t('field.newPassword')}
          failure={failure}
          submitText={t('recover.submit')}
          submitting={form.formState.isSubmitting}
        />
      </form>
      <p className="jc-auth-alt">
        {t('recover.remembered')}
        <Link className="jc-auth-link" to="/user/login">
          {t('recover.backToLogin')}
        </Link>
      </p>
    </AuthShell>
  );
}
