import { Button, Callout } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { login } from '@/lib/api/session';
import { api } from '@/lib/http/index';
import { safeRedirect } from '@/lib/redirect';
import { session } from '@/lib/session';

/** The console account's login, then back to `redirect` (else `home`); or on without an account (`guest`). */
export function LoginForm({ home, guest }: { home: string; guest: string }) {
  const { t } = useTranslation('calibration');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  const [userName, setUserName] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailed(null);
    try {
      const issued = await login({ userName: userName.trim(), accountPassword: password, loginType: 1 }, true);
      session.signedIn(issued.token);
      api.sessionStarted();
      navigate(redirect ? safeRedirect(redirect) : home, { replace: true });
    } catch (error) {
      setFailed(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="jc-cal-login" onSubmit={submit} noValidate aria-label={t('login.title')} data-testid="calibration-login">
      <h2>{t('login.title')}</h2>
      {failed && <Callout intent="danger">{failed}</Callout>}
      <label className="bp6-label">
        {t('login.userName')}
        <input className="bp6-input bp6-fill" autoComplete="username" value={userName} data-testid="calibration-login-user"
          onChange={(e) => setUserName(e.target.value)} />
      </label>
      <label className="bp6-label">
        {t('login.password')}
        <input className="bp6-input bp6-fill" type="password" autoComplete="current-password" value={password}
          data-testid="calibration-login-password" onChange={(e) => setPassword(e.target.value)} />
      </label>
      <Button type="submit" intent="primary" fill loading={busy} text={t('login.submit')}
        disabled={!userName.trim() || !password} />
      <Link to={redirect ? safeRedirect(redirect) : guest} className="bp6-button bp6-minimal bp6-fill" data-testid="calibration-guest">
        {t('login.guest')}
      </Link>
    </form>
  );
}
