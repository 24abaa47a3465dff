import { Button, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { TimeIcon } from '@blueprintjs/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { logout } from '@/app/effects';
import { startIdleProtection, type IdleProtectionFlags } from '@/lib/idle';
import { useSession } from '@/lib/session';
import './dialogs.css';

/**
 * Runs idle protection while the profile asks for it (`enableProtect` and `enableFda`); calls
 * `onIdle` once the user has been away for five minutes.
 */
export function useIdleProtection(flags: IdleProtectionFlags | null | undefined, onIdle: () => void): void {
  const enableProtect = flags?.enableProtect;
  const enableFda = flags?.enableFda;
  useEffect(() => {
    if (enableProtect === undefined || enableFda === undefined) return undefined;
    const stop = startIdleProtection({ enableProtect, enableFda }, onIdle);
    return stop ?? undefined;
  }, [enableProtect, enableFda, onIdle]);
}

export interface IdleLogoutProps {
  /** Reloads the page after the user has read the message (tests replace it). */
  reload?: () => void;
}

const reloadPage = () => window.location.reload();

/** Idle protection and its "session ended" modal: after five idle minutes, logout; OK reloads. */
export function IdleLogout({ reload = reloadPage }: IdleLogoutProps) {
  const { t } = useTranslation('dialogs');
  const queryClient = useQueryClient();
  const profile = useSession().info?.userProfile;
  const [timedOut, setTimedOut] = useState(false);
  const onIdle = useCallback(() => {
    setTimedOut(true);
    void logout(queryClient);
  }, [queryClient]);
  useIdleProtection(timedOut ? null : profile, onIdle);

  return (
    <Dialog
      isOpen={timedOut}
      title={t('idle.title')}
      icon={<TimeIcon />}
      isCloseButtonShown={false}
      canEscapeKeyClose={false}
      canOutsideClickClose={false}
      className="jc-idle-dialog"
    >
      <div className="jc-dialog-content" data-testid="idle-dialog">
        <DialogBody>
          <p>{t('idle.message')}</p>
        </DialogBody>
        <DialogFooter actions={<Button intent="primary" text={t('idle.ok')} onClick={reload} autoFocus />} />
      </div>
    </Dialog>
  );
}
