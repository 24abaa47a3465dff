import { Alert } from '@blueprintjs/core';
import { TrashIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import './manage.css';
import { notify } from '@/lib/notify';
import { useDeleteDevices } from '../api/manage';

export interface DeviceToDelete {
  deviceId: number;
  deviceName: string;
}

interface DeleteDevicesDialogProps {
  /** Empty: closed. */
  devices: readonly DeviceToDelete[];
  onClose: () => void;
  onDeleted?: () => void;
}

/** Confirms deleting one or many devices (all or none, with their data and logins). */
export function DeleteDevicesDialog({ devices, onClose, onDeleted }: DeleteDevicesDialogProps) {
  const { t } = useTranslation('devices');
  const remove = useDeleteDevices();
  const names = devices.slice(0, 5).map((device) => device.deviceName);
  const confirm = async () => {
    try {
      const deleted = await remove.mutateAsync(devices.map((device) => device.deviceId));
      notify.success(t('delete.done', { count: deleted }));
      onDeleted?.();
      onClose();
    } catch {
      // the client has shown the server's reason; nothing was deleted
    }
  };
  return (
    <Alert
      isOpen={devices.length > 0}
      intent="danger"
      icon={<TrashIcon />}
      cancelButtonText={t('info.cancel')}
      confirmButtonText={t('delete.confirm', { count: devices.length })}
      loading={remove.isPending}
      onCancel={onClose}
      onConfirm={() => void confirm()}
      canEscapeKeyCancel
      className="jc-delete-dialog"
    >
      <div data-testid="delete-devices-dialog">
        <p>
          <strong>{t('delete.title', { count: devices.length })}</strong>
        </p>
        <ul className="jc-delete-names">
          {names.map((name, index) => (
            <li key={index}>{name}</li>
          ))}
          {devices.length > names.length && <li>{t('delete.more', { count: devices.length - names.length })}</li>}
        </ul>
        <p>{t('delete.warning')}</p>
      </div>
    </Alert>
  );
}
