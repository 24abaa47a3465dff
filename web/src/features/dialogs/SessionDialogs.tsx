import { Button, OverlayToaster, Position } from '@blueprintjs/core';
import { ThListIcon, WarningSignIcon } from '@blueprintjs/icons';
import { NOTIFY_MS } from '@/lib/notify';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccountInfo } from '@/lib/api/accountInfo';
import { useSession } from '@/lib/session';
import { getToken, isNoticeSilenced } from '@/lib/storage';
import { useExpiredInfo, type ExpiredInfo } from '@/lib/api/expired';
import { useNotice } from '@/lib/api/notice';
import { ExpiredServiceDialog } from './ExpiredServiceDialog';
import { openExpiredDialog } from '@/lib/expiredDialogStore';
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
    const shown = toaster.current;
    const open = () => {
      shown.dismiss(toastKey);
      openExpiredDialog();
    };
    // The button goes under the text, not beside it as a toast action: on a phone the action beside
    // it left the text a column a word wide, Russian words broken in the middle.
    const toastKey = shown.show({
      intent: 'warning',
      icon: <WarningSignIcon />,
      // The spec's notification duration; hovering pauses it, and the home page's tiles open the
      // same dialog at any time.
      timeout: NOTIFY_MS,
      className: 'jc-expiry-reminder',
      message: (
        <div data-testid="expiry-reminder">
          <strong className="jc-expiry-reminder-title">{t('reminder.title')}</strong>
          <span>{expiry.data.pushMessages}</span>
          <Button size="small" icon={<ThListIcon />} text={t('reminder.open')} onClick={open}
            className="jc-expiry-reminder-open" data-testid="expiry-reminder-open" />
        </div>
      ),
    });
  }, [step, expiry.isPending, expiry.data, key, t]);

  return (
    <>
      <OverlayToaster ref={toaster} position={Position.BOTTOM_RIGHT} maxToasts={2} className="jc-expiry-toaster" />
      {step === 'identity' && <IdentityDialog info={info} />}
      {step === 'notice' && shownNotice && (
        <NoticeDialog notice={shownNotice} accountId={accountId} onClosed={() => sessionProgress.noticeDone(key)} />
      )}
    </>
  );
}
