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

const NAMES_SHOWN = 5;

/** The first few devices a confirmation is about, by name, and how many more. */
export function DeviceNames({ devices }: { devices: readonly DeviceToDelete[] }) {
  const { t } = useTranslation('devices');
  const names = devices.slice(0, NAMES_SHOWN).map((device) => device.deviceName);
  return (
    <ul className="jc-delete-names">
      {names.map((name, index) => (
        <li key={index}>{name}</li>
      ))}
      {devices.length > names.length && <li>{t('delete.more', { count: devices.length - names.length })}</li>}
    </ul>
  );
}

/** Confirms deleting one or many devices (all or none, with their data and logins). */
export function DeleteDevicesDialog({ devices, onClose, onDeleted }: DeleteDevicesDialogProps) {
  const { t } = useTranslation('devices');
  const remove = useDeleteDevices();
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
        <DeviceNames devices={devices} />
        <p>{t('delete.warning')}</p>
      </div>
    </Alert>
  );
}
