import { Button } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { editionConfig } from '@/lib/config';
import { notify } from '@/lib/notify';
import { getToken } from '@/lib/storage';
import { useBinding, type BindingBody } from './api/binding';
import { CODE_TYPES } from '@/lib/api/sendCode';
import { AuthShell } from './components/AuthShell';
import { ContactCodeFields } from './components/ContactCodePasswordFields';
import { FormError } from './components/FormError';
import { useCodeSender } from './hooks/useCodeSender';
import { useRevalidateOnLanguageChange } from '@/hooks/useRevalidateOnLanguageChange';
import { loginFor } from '@/lib/redirect';
import { bindSchema, type BindForm, type Channel } from './schemas';
import { BUSINESS, showError } from '@/lib/serverErrors';
import { LIVE_VALIDATION } from '@/lib/forms';

/** Props of the bind page: which contact it binds. */
export interface BindContactPageProps {
  /** Phone number or e-mail address. */
  channel: Channel;
}

/** The form of a signed-in user binding a phone number or e-mail address to the account. */
function BindContactForm({ channel }: BindContactPageProps) {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const edition = editionConfig().edition;
  const resolver = useMemo(() => zodResolver(bindSchema(t, edition, channel)), [t, edition, channel]);
  const form = useForm<BindForm>({ ...LIVE_VALIDATION, resolver, defaultValues: { phone: '', email: '', code: '' } });
  useRevalidateOnLanguageChange(form);
  const sender = useCodeSender(form, channel, CODE_TYPES.bind);
  const binding = useBinding();
  const [failure, setFailure] = useState<string | null>(null);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const body: BindingBody = channel === 'phone' ? { phone: values.phone, code: values.code } : { email: values.email, code: values.code };
    try {
      await binding.mutateAsync(body);
      notify.success(t(channel === 'phone' ? 'bind.phoneSuccess' : 'bind.emailSuccess'));
      navigate('/', { replace: true });
    } catch (error) {
      setFailure(
        showError(error, form.setError, [channel, 'code'], { [BUSINESS.wrongCode]: 'code', [BUSINESS.contactBound]: channel }, t),
      );
    }
  });

  const phone = channel === 'phone';
  return (
    <AuthShell
      title={t(phone ? 'bind.phoneTitle' : 'bind.emailTitle')}
      subtitle={t(phone ? 'bind.phoneSubtitle' : 'bind.emailSubtitle')}
    >
      <form onSubmit={submit} noValidate aria-label={t(phone ? 'bind.phoneTitle' : 'bind.emailTitle')}>
        <ContactCodeFields control={form.control} channel={channel} edition={edition} sender={sender} />
        <FormError message={failure} />
        <Button
          className="jc-auth-submit"
          type="submit"
          intent="primary"
          size="large"
          fill
          loading={form.formState.isSubmitting}
        >
          {t('bind.submit')}
        </Button>
      </form>
      <p className="jc-auth-alt">
        <Link className="jc-auth-link" to="/" replace>
          {t('bind.skip')}
        </Link>
      </p>
    </AuthShell>
  );
}

/** Bind a phone or e-mail; without a session, the login page first, then back here. */
export function BindContactPage({ channel }: BindContactPageProps) {
  const location = useLocation();
  if (!getToken()) return <Navigate to={loginFor(location.pathname + location.search)} replace />;
  return <BindContactForm key={channel} channel={channel} />;
}
