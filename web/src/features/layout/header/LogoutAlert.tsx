import { Alert } from '@blueprintjs/core';
import { LogOutIcon } from '@blueprintjs/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LOGIN_PATHS } from '@/app/routes';
import { notify } from '@/lib/notify';
import { signOut } from '../signOut';

export interface LogoutAlertProps {
  /** The confirmation shows. */
  isOpen: boolean;
  /** Called on Cancel, and once logged out. */
  onClose: () => void;
}

/** Confirms logging out; then the session ends whatever the server says, and the login page opens. */
export function LogoutAlert({ isOpen, onClose }: LogoutAlertProps) {
  const { t } = useTranslation(['layout', 'common']);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    const failure = await signOut(queryClient);
    setBusy(false);
    onClose();
    if (failure) notify.error(failure, t('common:http.errorTitle'));
    navigate(LOGIN_PATHS.user, { replace: true });
  };
  return (
    <Alert
      isOpen={isOpen}
      icon={<LogOutIcon />}
      intent="primary"
      confirmButtonText={t('logout.ok')}
      cancelButtonText={t('common:cancel')}
      loading={busy}
      canEscapeKeyCancel={!busy}
      canOutsideClickCancel={!busy}
      onConfirm={() => void confirm()}
      onCancel={onClose}
      className="jc-alert"
    >
      <p className="jc-alert-title">{t('logout.confirm')}</p>
      <p className="jc-alert-text">{t('logout.detail')}</p>
    </Alert>
  );
}
