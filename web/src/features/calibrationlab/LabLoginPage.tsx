import { Button, Callout, Card, H2 } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { fetchAccountInfo } from '@/lib/api/accountInfo';
import { LAB_PERMISSION } from '@/lib/api/calibrationLab';
import { login, logoutCall } from '@/lib/api/session';
import { api, ApiError } from '@/lib/http';
import { safeRedirect } from '@/lib/redirect';
import { BUSINESS, sortError } from '@/lib/serverErrors';
import { session } from '@/lib/session';
import { Field } from './components/Field';
import './calibrationlab.css';

export const LAB_HOME = '/admin/order/list';

function loginFormSchema(t: (key: string) => string) {
  return z.object({
    userName: z.string().refine((v) => v.trim().length > 0, t('error.required')),
    accountPassword: z.string().min(1, t('error.required')),
  });
}
type LoginForm = z.infer<ReturnType<typeof loginFormSchema>>;

/** Whether the server wants the image code, which only the console's own login page draws. */
function wantsCaptcha(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  const codes: number[] = [BUSINESS.captchaRequired, BUSINESS.accountProtected, BUSINESS.wrongCaptcha];
  return codes.includes(error.code) || (error.data as { captchaRequired?: unknown } | undefined)?.captchaRequired === true;
}

/**
 * The lab's login (/calibration/admin/login): name and password; then the account's permissions
 * are read, and an account without the lab's is told so and signed out again, not let into the
 * lab's pages. Where the server asks for the image code, the console's login page takes over.
 */
export default function LabLoginPage() {
  const { t } = useTranslation(['calibrationlab', 'common']);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const resolver = useMemo(() => zodResolver(loginFormSchema(t)), [t]);
  const form = useForm<LoginForm>({ resolver, defaultValues: { userName: '', accountPassword: '' } });
  const [failure, setFailure] = useState<string | null>(null);
  const [notLab, setNotLab] = useState(false);
  const [captcha, setCaptcha] = useState(false);
  const target = params.get('redirect') ? safeRedirect(params.get('redirect')) : LAB_HOME;

  const submit = form.handleSubmit(async ({ userName, accountPassword }) => {
    setFailure(null);
    setNotLab(false);
    try {
      const issued = await login({ userName: userName.trim(), accountPassword, loginType: 1 }, true);
      session.signedIn(issued.token);
      api.sessionStarted();
      const info = await fetchAccountInfo();
      if (!info.permissionRoutes.includes(LAB_PERMISSION)) {
        setNotLab(true);
        await logoutCall().catch(() => undefined);
        session.clear();
        return;
      }
      navigate(target, { replace: true });
    } catch (error) {
      if (wantsCaptcha(error)) setCaptcha(true);
      setFailure(sortError(error, [], {}, t).form);
    }
  });

  return (
    <div className="jc-cl-login">
      <Card className="jc-cl-login-card" elevation={1}>
        <H2>{t('login.title')}</H2>
        <p className="jc-cl-muted">{t('login.subtitle')}</p>
        <form onSubmit={submit} noValidate aria-label={t('login.title')} data-testid="lab-login">
          <Field control={form.control} name="userName" label={t('login.userName')} />
          <Field control={form.control} name="accountPassword" label={t('login.password')} type="password" />
          {notLab && (
            <Callout intent="warning" title={t('login.notLab')} data-testid="not-lab-account">{t('login.notLabDetail')}</Callout>
          )}
          {failure && <Callout intent="danger" data-testid="lab-login-error">{failure}</Callout>}
          {captcha && (
            <p><Link to={`/user/login?redirect=${encodeURIComponent(target)}`}>{t('login.withCaptcha')}</Link></p>
          )}
          <Button type="submit" intent="primary" fill size="large" loading={form.formState.isSubmitting}
            text={t('login.submit')} data-testid="lab-login-submit" />
        </form>
      </Card>
    </div>
  );
}
