import { Button, H2, Icon } from '@blueprintjs/core';
import { ErrorIcon, TickCircleIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { getToken } from '@/lib/storage';
import { AuthShell } from './components/AuthShell';

const SUCCESS = new Set(['success', 'succeeded', 'ok', 'true', '1', '200']);

/**
 * Whether the third-party login succeeded: the `status` query when present, else whether a
 * session exists (the guard has already stored a `token` from the query).
 */
export function loginSucceeded(status: string | null, token: string | null): boolean {
  if (status === null || status.trim() === '') return token !== null;
  return SUCCESS.has(status.trim().toLowerCase());
}

/** The landing page after a third-party login: success or failure, and the way on. */
export default function LoginResultPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const success = loginSucceeded(params.get('status'), getToken());
  const message = params.get('msg')?.trim() || t(success ? 'result.successText' : 'result.failureText');
  const title = t(success ? 'result.successTitle' : 'result.failureTitle');
  return (
    <AuthShell>
      <div className="jc-auth-result" role="status" data-testid={success ? 'login-success' : 'login-failure'}>
        <span className={success ? 'jc-auth-result-icon jc-auth-result-success' : 'jc-auth-result-icon jc-auth-result-failure'}>
          <Icon icon={success ? <TickCircleIcon /> : <ErrorIcon />} size={36} />
        </span>
        <H2>{title}</H2>
        <p>{message}</p>
        <Button
          className="jc-auth-submit"
          intent="primary"
          size="large"
          fill
          onClick={() => navigate(success ? '/' : '/user/login', { replace: true })}
        >
          {t(success ? 'result.continue' : 'result.backToLogin')}
        </Button>
      </div>
    </AuthShell>
  );
}
