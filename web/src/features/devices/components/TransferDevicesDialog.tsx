import { Button, Callout, Checkbox, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, Spinner } from '@blueprintjs/core';
import { SwapHorizontalIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SHARING_LIMITS, useTransferDevices, useTransferPreview } from '@/lib/api/sharing';
import { clearEmoji } from '@/lib/clearEmoji';
import { notify } from '@/lib/notify';
import { accountFits } from '@/lib/shareForm';
import { DeviceNames, type DeviceToDelete } from './DeleteDevicesDialog';
import './manage.css';

interface TransferDevicesDialogProps {
  /** The devices to hand over (the caller holds the owner's rights on each); empty: closed. */
  devices: readonly DeviceToDelete[];
  onClose: () => void;
  /** After the transfer: the devices are no longer the caller's. */
  onTransferred?: () => void;
}

/**
 * Hands one device or many to another account: what goes with them (history, alarms, service), what
 * is dropped (their shares, projects and organizations) and that the caller loses them at once, confirmed by
 * ticking "I understand".
 */
export function TransferDevicesDialog({ devices, onClose, onTransferred }: TransferDevicesDialogProps) {
  const { t } = useTranslation('devices');
  return (
    <Dialog isOpen={devices.length > 0} onClose={onClose} className="jc-add-dialog" icon={<SwapHorizontalIcon />}
      title={t('transfer.title', { count: devices.length })}>
      {devices.length > 0 && <TransferBody devices={devices} onDone={onClose} onTransferred={onTransferred} />}
    </Dialog>
  );
}

function TransferBody({ devices, onDone, onTransferred }: { devices: readonly DeviceToDelete[]; onDone: () => void;
  onTransferred?: () => void }) {
  const { t } = useTranslation('devices');
  const deviceIds = devices.map((device) => device.deviceId);
  const preview = useTransferPreview(deviceIds);
  const transfer = useTransferDevices();
  const [account, setAccount] = useState('');
  const [touched, setTouched] = useState(false);
  const [understood, setUnderstood] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const fits = accountFits(account);
  const accountError = touched && !fits
    ? t('sharing.error.account', { min: SHARING_LIMITS.accountMin, max: SHARING_LIMITS.accountMax }) : undefined;
  const consequences = preview.data;

  const confirm = async () => {
    setTouched(true);
    if (!fits || !understood) return;
    setFailure(null);
    try {
      const done = await transfer.mutateAsync({ deviceIds, account: account.trim() });
      notify.success(t('transfer.done', { name: done.account.userName, count: done.transferred }));
      onTransferred?.();
      onDone();
    } catch (error) {
      setFailure(error instanceof Error && error.message ? error.message : t('transfer.failed'));
    }
  };

  return (
    <form onSubmit={(event) => { event.preventDefault(); void confirm(); }} noValidate data-testid="transfer-dialog">
      <DialogBody>
        <DeviceNames devices={devices} />
        <FormGroup label={t('transfer.account')} labelFor="transfer-account" labelInfo={t('info.required')}
          intent={accountError ? 'danger' : 'none'} helperText={accountError ?? t('sharing.accountHint')}>
          <InputGroup id="transfer-account" value={account} autoFocus maxLength={64} intent={accountError ? 'danger' : 'none'}
            onChange={(event) => { setAccount(clearEmoji(event.currentTarget.value)); setTouched(true); }}
            data-testid="transfer-account" />
        </FormGroup>
        {consequences === undefined ? (
          preview.isError ? <Callout intent="danger">{t('transfer.previewFailed')}</Callout> : <Spinner size={20} />
        ) : (
          <Callout intent="warning" title={t('transfer.consequences')} data-testid="transfer-preview">
            <ul className="jc-transfer-list">
              <li>{t('transfer.goes', { count: consequences.devices })}</li>
              <li data-testid="transfer-shares">{t('transfer.shares', { count: consequences.shares })}</li>
              {consequences.projects > 0 && <li>{t('transfer.projects', { count: consequences.projects })}</li>}
              {consequences.organizations > 0 && <li>{t('transfer.organizations', { count: consequences.organizations })}</li>}
              <li><strong>{t('transfer.loseAccess')}</strong></li>
            </ul>
          </Callout>
        )}
        <Checkbox className="jc-transfer-understand" checked={understood} onChange={(event) => setUnderstood(event.currentTarget.checked)}
          label={t('transfer.understand', { name: account.trim() || '…' })} data-testid="transfer-understand" />
        {failure && <Callout intent="danger" data-testid="transfer-error">{failure}</Callout>}
      </DialogBody>
      <DialogFooter actions={<>
        <Button text={t('info.cancel')} onClick={onDone} />
        <Button type="submit" intent="danger" icon={<SwapHorizontalIcon />} text={t('transfer.confirm', { count: devices.length })}
          disabled={!understood || !fits || consequences === undefined} loading={transfer.isPending} data-testid="transfer-confirm" />
      </>} />
    </form>
  );
}
