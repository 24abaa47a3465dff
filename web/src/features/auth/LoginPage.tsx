import { Button } from '@blueprintjs/core';
import { UserIcon } from '@blueprintjs/icons';
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
import { CaptchaField } from './components/Captcha';
import { CodeLoginForm } from './components/CodeLoginForm';
import { FormError } from './components/FormError';
import { PasswordField } from './components/PasswordField';
import { TextField } from './components/TextField';
import { useCaptcha } from './hooks/useCaptcha';
import { useRevalidateOnLanguageChange } from './hooks/useRevalidateOnLanguageChange';
import { safeRedirect } from '@/lib/redirect';
import { loginSchema, type LoginForm } from './schemas';
import { BUSINESS, showError } from './serverErrors';

const FIELDS = ['userName', 'accountPassword', 'verifyCode'] as const;

/** Registration is offered unless the guard would send the register page back here. */
function registrationOpen(): boolean {
  return !cachedCustomPage()?.enableRegister;
}

/**
 * Whether the next login needs the image code: the server says so, and the page shows it exactly
 * then (from then on the server refuses the name's logins without it): a wrong password whose
 * answer says `captchaRequired`, a login refused for want of it (1014) or during an attack (1015),
 * or a wrong image code (1004).
 */
export function asksForCaptcha(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  const codes: number[] = [BUSINESS.captchaRequired, BUSINESS.accountProtected, BUSINESS.wrongCaptcha];
  return codes.includes(error.code) || (error.data as { captchaRequired?: unknown } | undefined)?.captchaRequired === true;
}

/**
 * Log in with a user name, phone or e-mail and a password; the image code when the server asks
 * for it (asksForCaptcha), then for the rest of the visit. While an attack protects the account
 * (1015) the password needs the image code, or the user logs in with a code sent to them.
 */
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
  const [codeLogin, setCodeLogin] = useState(false);
  const [offerCode, setOfferCode] = useState(false);

  const signedIn = (token: string) => {
    session.signedIn(token);
    api.sessionStarted();
    navigate(safeRedirect(params.get('redirect')), { replace: true });
  };

  const submit = form.handleSubmit(async ({ userName, accountPassword, verifyCode }) => {
    setFailure(null);
    const answered = captcha.captcha ? { verifyCode, captchaId: captcha.captcha.id } : undefined;
    try {
      const issued = await login.mutateAsync({ userName, accountPassword, captcha: answered });
      signedIn(issued.token);
    } catch (error) {
      setFailure(showError(error, form.setError, FIELDS, { [BUSINESS.wrongCaptcha]: 'verifyCode' }, t));
      if (error instanceof ApiError && error.code === BUSINESS.accountProtected) setOfferCode(true);
      if (withCaptcha ? error instanceof ApiError : asksForCaptcha(error)) {
        // each image is checked once: a failed attempt always gets a new one
        form.setValue('verifyCode', '');
        captcha.refresh();
      }
    }
  });

  if (codeLogin) {
    return (
      <AuthShell title={t('login.codeTitle')} subtitle={t('login.subtitle')}>
        <CodeLoginForm
          userName={form.getValues('userName')}
          onPasswordLogin={() => setCodeLogin(false)}
          onSignedIn={signedIn}
        />
      </AuthShell>
    );
  }

  return (
    <AuthShell title={t('login.title')} subtitle={t('login.subtitle')}>
      <form onSubmit={submit} noValidate aria-label={t('login.title')}>
        <TextField
          control={form.control}
          name="userName"
          label={t('field.loginName')}
          placeholder={t('placeholder.loginName')}
          autoComplete="username"
          leftIcon={<UserIcon />}
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
          <CaptchaField control={form.control} name="verifyCode" state={captcha} />
        )}
        <div className="jc-auth-row">
          <button type="button" className="jc-auth-link jc-auth-link-button" onClick={() => setCodeLogin(true)}>
            {t('login.withCode')}
          </button>
          <Link className="jc-auth-link" to="/user/recover">
            {t('login.forgot')}
          </Link>
        </div>
        <FormError message={failure} />
        {offerCode && (
          <Button className="jc-auth-code-offer" variant="outlined" intent="primary" fill onClick={() => setCodeLogin(true)}>
            {t('login.sendMeACode')}
          </Button>
        )}
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
