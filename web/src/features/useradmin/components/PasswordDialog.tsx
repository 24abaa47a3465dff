import { Button, Callout, Dialog, DialogBody, DialogFooter, InputGroup } from '@blueprintjs/core';
import { DuplicateIcon, KeyIcon, WarningSignIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { notify } from '@/lib/notify';

interface PasswordDialogProps {
  /** The account and its new password, shown this once; null: closed. */
  shown: { userName: string; password: string } | null;
  onClose: () => void;
}

/** A password the server made, shown once, with a copy button: closing the dialog forgets it. */
export function PasswordDialog({ shown, onClose }: PasswordDialogProps) {
  const { t } = useTranslation('useradmin');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(shown?.password ?? '');
      notify.success(t('password.copied'));
    } catch {
      notify.error(t('password.copyFailed'));
    }
  };
  return (
    <Dialog isOpen={shown !== null} onClose={onClose} icon={<KeyIcon />} canOutsideClickClose={false}
      title={t('password.title', { name: shown?.userName ?? '' })} className="jc-ua-dialog">
      {shown && (
        <>
          <DialogBody>
            <Callout intent="warning" icon={<WarningSignIcon />} compact>{t('password.once')}</Callout>
            <div className="jc-ua-password">
              <InputGroup readOnly value={shown.password} className="jc-ua-password-text" data-testid="ua-new-password"
                onFocus={(e) => e.currentTarget.select()} aria-label={t('password.label')}
                rightElement={<Button variant="minimal" icon={<DuplicateIcon />} aria-label={t('password.copy')}
                  title={t('password.copy')} onClick={() => void copy()} data-testid="ua-copy-password" />} />
            </div>
          </DialogBody>
          <DialogFooter actions={<Button intent="primary" text={t('password.done')} onClick={onClose} data-testid="ua-password-done" />} />
        </>
      )}
    </Dialog>
  );
}
