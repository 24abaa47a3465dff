import { UserIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { editionConfig } from '@/lib/config';
import { api } from '@/lib/http';
import { notify } from '@/lib/notify';
import { session } from '@/lib/session';
import { useRegister, type RegisterBody } from './api/register';
import { CODE_TYPES } from '@/lib/api/sendCode';
import { AuthShell } from './components/AuthShell';
import { ContactCodePasswordFields } from './components/ContactCodePasswordFields';
import { TextField } from './components/TextField';
import { useCodeSender } from './hooks/useCodeSender';
import { useRevalidateOnLanguageChange } from '@/hooks/useRevalidateOnLanguageChange';
import { registerSchema, USER_NAME_MAX, type RegisterForm } from './schemas';
import { BUSINESS, showError } from '@/lib/serverErrors';
import { LIVE_VALIDATION } from '@/lib/forms';

const FIELDS = ['userName', 'accountPassword', 'confirmPassword', 'phone', 'email', 'code'] as const;

/** Sign up: domestic with a phone and an SMS code, international with an e-mail and its code. */
export default function RegisterPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const edition = editionConfig().edition;
  const channel = edition === 'domestic' ? 'phone' : 'email';
  const resolver = useMemo(() => zodResolver(registerSchema(t, edition)), [t, edition]);
  const form = useForm<RegisterForm>({
    ...LIVE_VALIDATION,
    resolver,
    defaultValues: { userName: '', phone: '', email: '', code: '', accountPassword: '', confirmPassword: '' },
  });
  useRevalidateOnLanguageChange(form);
  const sender = useCodeSender(form, channel, CODE_TYPES.register);
  const register = useRegister();
  const [failure, setFailure] = useState<string | null>(null);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const base = { userName: values.userName, accountPassword: values.accountPassword, code: values.code };
    const body: RegisterBody = channel === 'phone' ? { ...base, phone: values.phone } : { ...base, email: values.email };
    try {
      const issued = await register.mutateAsync(body);
      session.signedIn(issued.token);
      api.sessionStarted();
      notify.success(t('register.success'));
      navigate('/', { replace: true });
    } catch (error) {
      setFailure(
        showError(
          error,
          form.setError,
          FIELDS,
          { [BUSINESS.wrongCode]: 'code', [BUSINESS.userExists]: 'userName', [BUSINESS.contactBound]: channel },
          t,
        ),
      );
    }
  });

  return (
    <AuthShell title={t('register.title')} subtitle={t('register.subtitle')}>
      <form onSubmit={submit} noValidate aria-label={t('register.title')}>
        <TextField
          control={form.control}
          name="userName"
          label={t('field.userName')}
          placeholder={t('placeholder.userName')}
          hint={t('hint.userName')}
          autoComplete="username"
          leftIcon={<UserIcon />}
          maxLength={USER_NAME_MAX}
          autoFocus
          plainText
        />
        <ContactCodePasswordFields
          control={form.control}
          channel={channel}
          edition={edition}
          sender={sender}
          passwordLabel={t('field.password')}
          failure={failure}
          submitText={t('register.submit')}
          submitting={form.formState.isSubmitting}
        />
      </form>
      <p className="jc-auth-alt">
        {t('register.haveAccount')}
        <Link className="jc-auth-link" to="/user/login">
          {t('register.login')}
        </Link>
      </p>
    </AuthShell>
  );
}
