import { Alert, FormGroup, HTMLSelect } from '@blueprintjs/core';
import { OfficeIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '@/lib/notify';
import type { MyOrganization } from '@/lib/api/myOrganizations';
import { useChangeOrganization } from '../api/manage';
import type { DeviceToDelete } from './DeleteDevicesDialog';
import './manage.css';

const NONE = 0;

interface MoveToOrganizationDialogProps {
  /** The devices to move (the caller's to change); empty: closed. */
  devices: readonly DeviceToDelete[];
  /** The caller's organizations where it changes devices: where they may go. */
  organizations: readonly MyOrganization[];
  onClose: () => void;
  onMoved?: () => void;
}

/** Moves the selected devices into one of the caller's organizations or out of any, all or none: the server
 * lets their owner move them in and the owner or an administrator take them out, and says why otherwise. */
export function MoveToOrganizationDialog({ devices, organizations, onClose, onMoved }: MoveToOrganizationDialogProps) {
  const { t } = useTranslation('devices');
  const change = useChangeOrganization();
  const [target, setTarget] = useState<number | null>(null);
  const chosen = target ?? organizations[0]?.organizationId ?? NONE;
  const close = () => {
    setTarget(null);
    onClose();
  };
  const confirm = async () => {
    try {
      const moved = await change.mutateAsync({
        deviceIds: devices.map((device) => device.deviceId),
        organizationId: chosen === NONE ? null : chosen,
      });
      notify.success(t(chosen === NONE ? 'organization.removed' : 'organization.moved', { count: moved }));
      onMoved?.();
      close();
    } catch {
      // the client has shown the server's reason; nothing moved
    }
  };
  return (
    <Alert
      isOpen={devices.length > 0}
      intent="primary"
      icon={<OfficeIcon />}
      cancelButtonText={t('info.cancel')}
      confirmButtonText={t('organization.confirm', { count: devices.length })}
      loading={change.isPending}
      onCancel={close}
      onConfirm={() => void confirm()}
      canEscapeKeyCancel
      className="jc-delete-dialog"
    >
      <div data-testid="move-organization-dialog">
        <p>
          <strong>{t('organization.title', { count: devices.length })}</strong>
        </p>
        <FormGroup label={t('organization.target')} labelFor="jc-move-organization" helperText={t('organization.hint')}>
          <HTMLSelect
            id="jc-move-organization"
            fill
            value={chosen}
            onChange={(event) => setTarget(Number(event.currentTarget.value))}
            options={[
              ...organizations.map((o) => ({ value: o.organizationId, label: o.organizationName })),
              { value: NONE, label: t('organization.none') },
            ]}
            data-testid="move-organization-target"
          />
        </FormGroup>
      </div>
    </Alert>
  );
}
