import { Spinner } from '@blueprintjs/core';
import { ShieldIcon } from '@blueprintjs/icons';
import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { CaptchaState } from '../hooks/useCaptcha';
import { CAPTCHA_MAX } from '../schemas';
import { TextField } from './TextField';

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

/** The image-code field of a login form: the answer, with its picture beside it (outside the
 *  input, at the picture's own size, so neither covers the other at any width or language). */
export function CaptchaField<V extends FieldValues>({ control, name, state }: {
  /** The form's control. */
  control: Control<V>;
  /** The field holding the answer (verifyCode). */
  name: FieldPath<V>;
  /** The picture shown, from useCaptcha. */
  state: CaptchaState;
}) {
  const { t } = useTranslation('auth');
  return (
    <TextField
      control={control}
      name={name}
      label={t('field.captcha')}
      placeholder={t('placeholder.captcha')}
      autoComplete="off"
      leftIcon={<ShieldIcon />}
      maxLength={CAPTCHA_MAX}
      beside={<CaptchaImage state={state} />}
    />
  );
}
