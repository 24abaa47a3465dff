import { Alert, AnchorButton, Button, Card } from '@blueprintjs/core';
import { KeyIcon, TrashIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReadOnlyReason } from '@/components/ReadOnly';
import { mayChange } from '@/lib/access';
import type { DeviceDetail } from '@/lib/api/devices';
import { notify } from '@/lib/notify';
import { usePermitted } from '@/lib/permissions';
import { BrokerLoginDialog } from '../components/BrokerLoginDialog';
import { useClearData, useRotatePassword, type BrokerLogin } from '../api/manage';

/**
 * What may be done to the device besides editing it: a new broker password (its owner only; shown
 * once, as when it was added) and clearing its data (whoever may change it), each confirmed.
 */
export function DeviceActions({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('devices');
  const permitted = usePermitted('device.list', 'edit');
  const [asking, setAsking] = useState<'rotate' | 'clear' | null>(null);
  const [login, setLogin] = useState<BrokerLogin | null>(null);
  const rotate = useRotatePassword();
  const clear = useClearData();
  if (!permitted) return null;
  const writable = mayChange(device);

  const confirm = async () => {
    try {
      if (asking === 'rotate') {
        setLogin(await rotate.mutateAsync(device.deviceId));
      } else {
        const cleared = await clear.mutateAsync(device.deviceId);
        notify.success(t('deviceActions.cleared', { readings: cleared.readings, alarms: cleared.alarms }));
      }
      setAsking(null);
    } catch {
      // the client has shown the server's reason; nothing changed
    }
  };
  const button = (key: 'rotate' | 'clear', allowed: boolean, why: string | null) => {
    const icon = key === 'rotate' ? <KeyIcon /> : <TrashIcon />;
    const intent = key === 'clear' ? 'danger' : 'none';
    if (allowed) {
      return <Button icon={icon} intent={intent} text={t(`deviceActions.${key}`)} onClick={() => setAsking(key)} data-testid={`device-${key}`} />;
    }
    const disabled = <AnchorButton icon={icon} intent={intent} disabled text={t(`deviceActions.${key}`)} data-testid={`device-${key}`} />;
    return why === null ? <ReadOnlyReason>{disabled}</ReadOnlyReason> : <span title={why}>{disabled}</span>;
  };

  return (
    <Card elevation={0} className="jc-tab-card jc-device-actions" data-testid="device-actions">
      <h3 className="jc-tab-title">{t('deviceActions.title')}</h3>
      <div className="jc-tab-action-list">
        <div>
          {button('rotate', writable && device.isOwner, writable ? t('deviceActions.ownerOnly') : null)}
          <p className="jc-tab-muted">{t('deviceActions.rotateHint')}</p>
        </div>
        <div>
          {button('clear', writable, null)}
          <p className="jc-tab-muted">{t('deviceActions.clearHint')}</p>
        </div>
      </div>
      <Alert isOpen={asking !== null} intent={asking === 'clear' ? 'danger' : 'warning'} icon={asking === 'clear' ? <TrashIcon /> : <KeyIcon />}
        cancelButtonText={t('info.cancel')} confirmButtonText={t(`deviceActions.${asking ?? 'rotate'}Confirm`)}
        loading={rotate.isPending || clear.isPending} onCancel={() => setAsking(null)} onConfirm={() => void confirm()}
        canEscapeKeyCancel>
        <p data-testid="device-action-confirm">{asking && t(`deviceActions.${asking}Warning`, { name: device.deviceName })}</p>
      </Alert>
      <BrokerLoginDialog login={login} deviceName={device.deviceName} onClose={() => setLogin(null)} />
    </Card>
  );
}
