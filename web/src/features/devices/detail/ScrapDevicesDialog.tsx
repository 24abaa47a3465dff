import { Alert, FormGroup, TextArea } from '@blueprintjs/core';
import { ArchiveIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '@/lib/notify';
import { SCRAP_REASON_MAX, useScrapDevices } from '../api/manage';
import { DeviceNames, type DeviceToDelete } from '../components/DeleteDevicesDialog';
import '../components/manage.css';

interface ScrapDevicesDialogProps {
  /** The devices to scrap (their owner's); empty: closed. */
  devices: readonly DeviceToDelete[];
  onClose: () => void;
  onScrapped?: () => void;
}

/** Confirms scrapping one or many devices, all or none, with an optional reason for their logs. */
export function ScrapDevicesDialog({ devices, onClose, onScrapped }: ScrapDevicesDialogProps) {
  const { t } = useTranslation('devices');
  const scrap = useScrapDevices();
  const [reason, setReason] = useState('');
  const tooLong = [...reason.trim()].length > SCRAP_REASON_MAX;
  const close = () => {
    setReason('');
    onClose();
  };
  const confirm = async () => {
    if (tooLong) return;
    try {
      const scrapped = await scrap.mutateAsync({ deviceIds: devices.map((device) => device.deviceId), reason });
      notify.success(t('scrap.done', { count: scrapped }));
      onScrapped?.();
      close();
    } catch {
      // the client has shown the server's reason; nothing was scrapped
    }
  };
  return (
    <Alert
      isOpen={devices.length > 0}
      intent="warning"
      icon={<ArchiveIcon />}
      cancelButtonText={t('info.cancel')}
      confirmButtonText={t('scrap.confirm', { count: devices.length })}
      loading={scrap.isPending}
      onCancel={close}
      onConfirm={() => void confirm()}
      canEscapeKeyCancel
      className="jc-delete-dialog"
    >
      <div data-testid="scrap-devices-dialog">
        <p>
          <strong>{t('scrap.title', { count: devices.length })}</strong>
        </p>
        <DeviceNames devices={devices} />
        <p>{t('scrap.warning')}</p>
        <FormGroup
          label={t('scrap.reason')}
          labelFor="jc-scrap-reason"
          intent={tooLong ? 'danger' : 'none'}
          helperText={tooLong ? t('scrap.reasonTooLong', { max: SCRAP_REASON_MAX }) : undefined}
        >
          <TextArea
            id="jc-scrap-reason"
            fill
            rows={2}
            value={reason}
            placeholder={t('scrap.reasonPlaceholder')}
            intent={tooLong ? 'danger' : 'none'}
            onChange={(event) => setReason(event.currentTarget.value)}
            data-testid="scrap-reason"
          />
        </FormGroup>
      </div>
    </Alert>
  );
}
