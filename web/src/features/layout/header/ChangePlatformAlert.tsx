import { Alert, AnchorButton, Callout, FormGroup, InputGroup } from '@blueprintjs/core';
import { ShareIcon, SwapHorizontalIcon } from '@blueprintjs/icons';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/lib/session';
import { browser } from '../browser';
import { otherPlatformUrl, requestPlatformToken } from '../platformSwitch';
import { failureText } from '../signOut';

export interface ChangePlatformAlertProps {
  /** The confirmation shows. */
  isOpen: boolean;
  /** Called on Cancel, and once the other platform has opened. */
  onClose: () => void;
}

/** Confirms changing platform with the password, then opens the other platform in a new window. */
export function ChangePlatformAlert({ isOpen, onClose }: ChangePlatformAlertProps) {
  const { t } = useTranslation(['layout', 'common']);
  const { info } = useSession();
  const [userName, setUserName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [blockedUrl, setBlockedUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!isOpen) return;
    setUserName(info?.baseAccount.userName ?? '');
    setPassword('');
    setError(null);
    setBlockedUrl(null);
  }, [isOpen, info]);

  const confirm = async () => {
    if (busy) return;
    if (!password) {
      setError(t('changePlatform.passwordRequired'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const { token } = await requestPlatformToken({
        userName: userName.trim(),
        accountPassword: password,
        phone: info?.baseAccount.phone,
        email: info?.baseAccount.email,
      });
      const url = otherPlatformUrl(token);
      if (browser.openWindow(url)) onClose();
      else setBlockedUrl(url);
    } catch (failure) {
      setError(failureText(failure));
    } finally {
      setBusy(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void confirm();
  };

  return (
    <Alert
      isOpen={isOpen}
      icon={<SwapHorizontalIcon />}
      intent="primary"
      confirmButtonText={t('changePlatform.ok')}
      cancelButtonText={t('common:cancel')}
      loading={busy}
      canEscapeKeyCancel={!busy}
      onConfirm={() => void confirm()}
      onCancel={onClose}
      className="jc-alert jc-change-platform"
    >
      <p className="jc-alert-title">{t('changePlatform.title')}</p>
      <p className="jc-alert-text">{t('changePlatform.intro')}</p>
      <form onSubmit={submit} noValidate>
        <FormGroup label={t('changePlatform.userName')} labelFor="jc-switch-user">
          <InputGroup id="jc-switch-user" value={userName} autoComplete="username"
            onChange={(event) => setUserName(event.target.value)} />
        </FormGroup>
        <FormGroup
          label={t('changePlatform.password')}
          labelFor="jc-switch-password"
          intent={error ? 'danger' : 'none'}
          helperText={error ?? undefined}
        >
          <InputGroup
            id="jc-switch-password"
            type="password"
            value={password}
            autoComplete="current-password"
            autoFocus
            intent={error ? 'danger' : 'none'}
            onChange={(event) => setPassword(event.target.value)}
          />
        </FormGroup>
        <button type="submit" hidden aria-hidden="true" tabIndex={-1} />
      </form>
      {blockedUrl && (
        <Callout intent="warning" compact>
          <p>{t('changePlatform.blocked')}</p>
          <AnchorButton href={blockedUrl} target="_blank" rel="noopener" intent="primary" icon={<ShareIcon />} onClick={onClose}
            text={t('changePlatform.openLink')} />
        </Callout>
      )}
    </Alert>
  );
}
