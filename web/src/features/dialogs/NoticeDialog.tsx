import { Button, Checkbox, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { NotificationsIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RichText } from '@/components/RichText';
import { silenceNotice } from '@/lib/storage';
import type { Notice } from './api/notice';
import './dialogs.css';

export interface NoticeDialogProps {
  /** The notice to show. */
  notice: Notice;
  /** The signed-in account: "don't remind again" is remembered per account and notice. */
  accountId: number;
  /** Called once the user has closed the notice. */
  onClosed: () => void;
}

/** The platform notice shown after login, with "Don't remind again" (spec seed 000 section 2). */
export function NoticeDialog({ notice, accountId, onClosed }: NoticeDialogProps) {
  const { t } = useTranslation('dialogs');
  const [isOpen, setOpen] = useState(true);
  const [silence, setSilence] = useState(false);
  const close = () => {
    if (silence) silenceNotice(accountId, notice.noticeId);
    setOpen(false);
  };
  return (
    <Dialog
      isOpen={isOpen}
      onClose={close}
      onClosed={onClosed}
      title={t('notice.title')}
      icon={<NotificationsIcon />}
      canOutsideClickClose={false}
      className="jc-notice-dialog"
    >
      <div className="jc-dialog-content" data-testid="notice-dialog">
        <DialogBody>
          <RichText html={notice.noticeContent} className="jc-notice-content" />
        </DialogBody>
        <DialogFooter actions={<Button intent="primary" text={t('notice.close')} onClick={close} />}>
          <Checkbox
            className="jc-notice-silence jc-hit-input"
            checked={silence}
            onChange={(event) => setSilence(event.currentTarget.checked)}
            label={t('notice.dontRemind')}
          />
        </DialogFooter>
      </div>
    </Dialog>
  );
}
