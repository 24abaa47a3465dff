import { Spinner } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { CaptchaState } from '../hooks/useCaptcha';

/** The captcha picture: a click asks for a new one. */
export function CaptchaImage({ state }: { state: CaptchaState }) {
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
