import { Button } from '@blueprintjs/core';
import { UserIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useCodeLogin, useSendLoginCode } from '../api/loginCode';
import { RESEND_SECONDS } from '@/lib/api/sendCode';
import { useCaptcha } from '../hooks/useCaptcha';
import { useCountdown } from '@/hooks/useCountdown';
import { useRevalidateOnLanguageChange } from '@/hooks/useRevalidateOnLanguageChange';
import { codeLoginSchema, LOGIN_NAME_MAX, type CodeLoginForm as Values } from '../schemas';
import { BUSINESS, showError, waitSecondsOf } from '@/lib/serverErrors';
import { CaptchaField } from './Captcha';
import { CodeField } from './CodeField';
import { FormError } from './FormError';
import { TextField } from './TextField';

/** Props of the one-time code login. */
export interface CodeLoginFormProps {
  /** The name already typed in the password form. */
  userName: string;
  /** Back to the password form. */
  onPasswordLogin: () => void;
  /** The server issued a token. */
  onSignedIn: (token: string) => void;
}

/**
 * Log in with a code sent to the account's e-mail or phone: the way in while an attack keeps the
 * password alone from working. Sending needs the image code (each image is checked once); the
 * answer never says whether the name exists.
 */
export function CodeLoginForm({ userName, onPasswordLogin, onSignedIn }: CodeLoginFormProps) {
  const { t } = useTranslation('auth');
  const captcha = useCaptcha();
  const { refresh } = captcha;
  useEffect(() => refresh(), [refresh]);
  const resolver = useMemo(() => zodResolver(codeLoginSchema(t)), [t]);
  const form = useForm<Values>({ resolver, defaultValues: { userName, verifyCode: '', loginCode: '' } });
  useRevalidateOnLanguageChange(form);
  const { remaining, start } = useCountdown();
  const sender = useSendLoginCode();
  const codeLogin = useCodeLogin();
  const [sentOnce, setSentOnce] = useState(false);
  const [sent, setSent] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const send = async () => {
    setSendError(null);
    setSent(false);
    if (!(await form.trigger('userName'))) return;
    const verifyCode = form.getValues('verifyCode').trim();
    if (!verifyCode || !captcha.captcha) {
      form.setError('verifyCode', { type: 'required', message: t('rule.captchaRequired') }, { shouldFocus: true });
      return;
    }
    try {
      await sender.mutateAsync({ userName: form.getValues('userName').trim(), verifyCode, captchaId: captcha.captcha.id });
      setSent(true);
      setSentOnce(true);
      start(RESEND_SECONDS);
      form.clearErrors('verifyCode');
    } catch (error) {
      const wait = waitSecondsOf(error, RESEND_SECONDS);
      if (wait) start(wait);
      setSendError(showError(error, form.setError, ['userName', 'verifyCode'], { [BUSINESS.wrongCaptcha]: 'verifyCode' }, t));
    }
    form.setValue('verifyCode', '');
    refresh();
  };

  const submit = form.handleSubmit(async ({ userName: name, loginCode }) => {
    setFailure(null);
    try {
      const issued = await codeLogin.mutateAsync({ userName: name, loginCode });
      onSignedIn(issued.token);
    } catch (error) {
      setFailure(showError(error, form.setError, ['userName', 'loginCode'], { [BUSINESS.wrongCode]: 'loginCode' }, t));
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label={t('login.codeTitle')} data-testid="code-login">
      <p className="jc-auth-note">{t('login.codeIntro')}</p>
      <TextField
        control={form.control}
        name="userName"
        label={t('field.loginName')}
        placeholder={t('placeholder.loginName')}
        autoComplete="username"
        leftIcon={<UserIcon />}
        maxLength={LOGIN_NAME_MAX}
      />
      <CaptchaField control={form.control} name="verifyCode" state={captcha} />
      <CodeField
        control={form.control}
        name="loginCode"
        label={t('field.loginCode')}
        placeholder={t('placeholder.code')}
        onSend={() => void send()}
        remaining={remaining}
        sending={sender.isPending}
        sentOnce={sentOnce}
        sentNote={sent ? t('login.codeSent') : null}
        sendError={sendError}
      />
      <div className="jc-auth-row">
        <button type="button" className="jc-auth-link jc-auth-link-button" onClick={onPasswordLogin}>
          {t('login.withPassword')}
        </button>
      </div>
      <FormError message={failure} />
      <Button className="jc-auth-submit" type="submit" intent="primary" size="large" fill loading={form.formState.isSubmitting}>
        {t('login.submit')}
      </Button>
    </form>
  );
}
