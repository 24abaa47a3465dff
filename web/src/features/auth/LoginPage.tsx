import { Button, Spinner } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { cachedCustomPage } from '@/features/platform/api/customPage';
import { api, ApiError } from '@/lib/http';
import { session } from '@/lib/session';
import { useLogin } from './api/login';
import { AuthShell } from './components/AuthShell';
import { FormError } from './components/FormError';
import { PasswordField } from './components/PasswordField';
import { TextField } from './components/TextField';
import { useCaptcha, type CaptchaState } from './hooks/useCaptcha';
import { useRevalidateOnLanguageChange } from './hooks/useRevalidateOnLanguageChange';
import { safeRedirect } from '@/lib/redirect';
import { CAPTCHA_MAX, loginSchema, type LoginForm } from './schemas';
import { BUSINESS, showError } from './serverErrors';

const FIELDS = ['userName', 'accountPassword', 'verifyCode'] as const;

/** The captcha picture: a click asks for a new one. */
function CaptchaImage({ state }: { state: CaptchaState }) {
  const { t } = useTranslation('auth');
  let content;
  if (state.captcha) content = <img src={state.captcha.url} alt={t('login.captchaAlt')} />;
  else if (state.loading) content = <Spinner size={16} />;
  else content = <span>{t('login.captchaFailed')}</span>;
  return (
    <button
      type="button"
      className="jc-auth-captcha-image"
      onClick={state.refresh}
      title={t('login.captchaRefresh')}
      aria-label={t('login.captchaRefresh')}
      data-testid="captcha-image"
    >
      {content}
    </button>
  );
}

/** Registration is offered unless the guard would send the register page back here. */
function registrationOpen(): boolean {
  return !cachedCustomPage()?.enableRegister;
}

/** Log in with a user name, phone or e-mail and a password; an image code after a failure. */
export default function LoginPage() {
  const { t, i18n } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const captcha = useCaptcha();
  const withCaptcha = captcha.captcha !== null;
  // the messages are written in the language of the moment
  const resolver = useMemo(() => zodResolver(loginSchema(t, withCaptcha)), [t, withCaptcha, i18n.language]);
  const form = useForm<LoginForm>({ resolver, defaultValues: { userName: '', accountPassword: '', verifyCode: '' } });
  useRevalidateOnLanguageChange(form);
  const login = useLogin();
  const [failure, setFailure] = useState<string | null>(null);

  const submit = form.handleSubmit(async ({ userName, accountPassword, verifyCode }) => {
    setFailure(null);
    const answered = captcha.captcha ? { verifyCode, captchaId: captcha.captcha.id } : undefined;
    try {
      const issued = await login.mutateAsync({ userName, accountPassword, captcha: answered });
      session.signedIn(issued.token);
      api.sessionStarted();
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch (error) {
      setFailure(showError(error, form.setError, FIELDS, { [BUSINESS.wrongCaptcha]: 'verifyCode' }, t));
      if (error instanceof ApiError) {
        // each image is checked once: a failed attempt always gets a new one
        form.setValue('verifyCode', '');
        captcha.refresh();
      }
    }
  });

  return (
    <AuthShell title={t('login.title')} subtitle={t('login.subtitle')}>
      <form onSubmit={submit} noValidate aria-label={t('login.title')}>
        <TextField
          control={form.control}
          name="userName"
          label={t('field.loginName')}
          placeholder={t('placeholder.loginName')}
          autoComplete="username"
          leftIcon="user"
          maxLength={200}
          autoFocus
        />
        <PasswordField
          control={form.control}
          name="accountPassword"
          label={t('field.password')}
          placeholder={t('placeholder.password')}
          autoComplete="current-password"
        />
        {(withCaptcha || captcha.loading || captcha.failed) && (
          <TextField
            control={form.control}
            name="verifyCode"
            label={t('field.captcha')}
            placeholder={t('placeholder.captcha')}
            autoComplete="off"
            leftIcon="shield"
            maxLength={CAPTCHA_MAX}
            rightElement={<CaptchaImage state={captcha} />}
          />
        )}
        <div className="jc-auth-row">
          <span />
          <Link className="jc-auth-link" to="/user/recover">
            {t('login.forgot')}
          </Link>
        </div>
        <FormError message={failure} />
        <Button
          className="jc-auth-submit"
          type="submit"
          intent="primary"
          size="large"
          fill
          loading={form.formState.isSubmitting}
        >
          {t('login.submit')}
        </Button>
      </form>
      {registrationOpen() && (
        <p className="jc-auth-alt">
          {t('login.noAccount')}
          <Link className="jc-auth-link" to="/user/register">
            {t('login.register')}
          </Link>
        </p>
      )}
    </AuthShell>
  );
}
