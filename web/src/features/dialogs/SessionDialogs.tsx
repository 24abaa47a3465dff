import { OverlayToaster, Position, type ToastProps } from '@blueprintjs/core';
import { ThListIcon, WarningSignIcon } from '@blueprintjs/icons';
import { NOTIFY_MS } from '@/lib/notify';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccountInfo } from '@/features/account/api/accountInfo';
import { useSession } from '@/lib/session';
import { getToken, isNoticeSilenced } from '@/lib/storage';
import { useExpiredInfo, type ExpiredInfo } from './api/expired';
import { useNotice } from './api/notice';
import { ExpiredServiceDialog } from './ExpiredServiceDialog';
import { openExpiredDialog } from './expiredDialogStore';
import { IdentityDialog, identityMissing } from './IdentityDialog';
import { IdleLogout } from './IdleLogout';
import { NoticeDialog } from './NoticeDialog';
import { nextStep, sessionProgress, useSessionProgress, type NoticeState } from './sessionSteps';
import './dialogs.css';

/**
 * The dialogs a signed-in session may raise: identity, notice and expiry reminder after login (in
 * that order, one at a time), the expired-service dialog, and idle protection. Rendered once by the
 * main layout.
 */
export function SessionDialogs() {
  const { info } = useSession();
  return (
    <>
      {info && <AfterLogin key={info.baseAccount.id} info={info} />}
      <ExpiredServiceDialog />
      <IdleLogout />
    </>
  );
}

/** The reminder has something to say: some device expired (1) or expires within 30 days (2). */
export function reminderDue(info: ExpiredInfo | undefined): info is ExpiredInfo & { pushMessages: string } {
  return !!info && (info.expiredFlag === 1 || info.expiredFlag === 2) && !!info.pushMessages;
}

function AfterLogin({ info }: { info: AccountInfo }) {
  const { t } = useTranslation('dialogs');
  const accountId = info.baseAccount.id;
  const key = `${accountId}:${getToken() ?? ''}`;
  const progress = useSessionProgress(key);
  const notice = useNotice();
  const expiry = useExpiredInfo(accountId);
  const toaster = useRef<OverlayToaster>(null);

  const shownNotice = notice.data && !isNoticeSilenced(accountId, notice.data.noticeId) ? notice.data : null;
  const noticeState: NoticeState = notice.isPending ? 'loading' : shownNotice ? 'show' : 'none';
  const step = nextStep({ identityMissing: identityMissing(info), notice: noticeState, ...progress });

  useEffect(() => {
    if (step !== 'reminder' || expiry.isPending || !toaster.current) return;
    if (!sessionProgress.claimReminder(key)) return;
    if (!reminderDue(expiry.data)) return;
    const action: NonNullable<ToastProps['action']> & { 'data-testid': string } = {
      text: t('reminder.open'),
      icon: <ThListIcon />,
      onClick: () => openExpiredDialog(),
      'data-testid': 'expiry-reminder-open',
    };
    toaster.current.show({
      intent: 'warning',
      icon: <WarningSignIcon />,
      // The spec's notification duration; hovering pauses it, and the home page's tiles open the
      // same dialog at any time.
      timeout: NOTIFY_MS,
      className: 'jc-expiry-reminder',
      message: (
        <span data-testid="expiry-reminder">
          <strong className="jc-expiry-reminder-title">{t('reminder.title')}</strong>
          <span>{expiry.data.pushMessages}</span>
        </span>
      ),
      action,
    });
  }, [step, expiry.isPending, expiry.data, key, t]);

  return (
    <>
      <OverlayToaster ref={toaster} position={Position.BOTTOM_RIGHT} maxToasts={2} />
      {step === 'identity' && <IdentityDialog info={info} />}
      {step === 'notice' && shownNotice && (
        <NoticeDialog notice={shownNotice} accountId={accountId} onClosed={() => sessionProgress.noticeDone(key)} />
      )}
    </>
  );
}
