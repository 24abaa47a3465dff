import { Alert, AnchorButton, Button, Card } from '@blueprintjs/core';
import { ArchiveIcon, KeyIcon, TrashIcon, UnarchiveIcon } from '@blueprintjs/icons';
import { useState, type JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { ReadOnlyReason } from '@/components/ReadOnly';
import { mayChange } from '@/lib/access';
import type { DeviceDetail } from '@/lib/api/devices';
import { notify } from '@/lib/notify';
import { formatInstant } from '@/lib/units';
import { usePermitted } from '@/lib/permissions';
import { BrokerLoginDialog } from '../components/BrokerLoginDialog';
import { useClearData, useRestoreDevice, useRotatePassword, type BrokerLogin } from '../api/manage';
import { ScrapDevicesDialog } from './ScrapDevicesDialog';

type Action = 'rotate' | 'clear' | 'scrap' | 'restore';
const ICONS: Readonly<Record<Action, JSX.Element>> = {
  rotate: <KeyIcon />,
  clear: <TrashIcon />,
  scrap: <ArchiveIcon />,
  restore: <UnarchiveIcon />,
};

/**
 * What may be done to the device besides editing it: a new broker password (its owner only; shown
 * once, as when it was added), clearing its data (whoever may change it), and scrapping it or
 * restoring it (its owner only), each confirmed.
 */
export function DeviceActions({ device }: { device: DeviceDetail }) {
  const { t, i18n } = useTranslation('devices');
  const permitted = usePermitted('device.list', 'edit');
  const [asking, setAsking] = useState<'rotate' | 'clear' | 'restore' | null>(null);
  const [scrapping, setScrapping] = useState(false);
  const [login, setLogin] = useState<BrokerLogin | null>(null);
  const rotate = useRotatePassword();
  const clear = useClearData();
  const restore = useRestoreDevice();
  if (!permitted) return null;
  const writable = mayChange(device);
  const owner = writable && device.isOwner;
  const scrappedAt = device.scrappedAt ?? null;

  const confirm = async () => {
    try {
      if (asking === 'rotate') {
        setLogin(await rotate.mutateAsync(device.deviceId));
      } else if (asking === 'restore') {
        await restore.mutateAsync(device.deviceId);
        notify.success(t('deviceActions.restored', { name: device.deviceName }));
      } else {
        const cleared = await clear.mutateAsync(device.deviceId);
        notify.success(t('deviceActions.cleared', { readings: cleared.readings, alarms: cleared.alarms }));
      }
      setAsking(null);
    } catch {
      // the client has shown the server's reason; nothing changed
    }
  };
  const button = (key: Action, allowed: boolean, why: string | null) => {
    const icon = ICONS[key];
    const intent = key === 'clear' ? 'danger' : key === 'scrap' ? 'warning' : 'none';
    const open = () => (key === 'scrap' ? setScrapping(true) : setAsking(key));
    if (allowed) {
      return <Button icon={icon} intent={intent} text={t(`deviceActions.${key}`)} onClick={open} data-testid={`device-${key}`} />;
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
        <div>
          {button(scrappedAt ? 'restore' : 'scrap', owner, writable ? t('deviceActions.ownerOnly') : null)}
          <p className="jc-tab-muted" data-testid="device-scrap-hint">
            {scrappedAt
              ? `${t('deviceActions.scrappedOn', { date: formatInstant(scrappedAt, i18n.language, false) })}. ${t('deviceActions.restoreHint')}`
              : t('deviceActions.scrapHint')}
          </p>
        </div>
      </div>
      <Alert isOpen={asking !== null} intent={asking === 'clear' ? 'danger' : 'warning'} icon={ICONS[asking ?? 'rotate']}
        cancelButtonText={t('info.cancel')} confirmButtonText={t(`deviceActions.${asking ?? 'rotate'}Confirm`)}
        loading={rotate.isPending || clear.isPending || restore.isPending} onCancel={() => setAsking(null)} onConfirm={() => void confirm()}
        canEscapeKeyCancel>
        <p data-testid="device-action-confirm">{asking && t(`deviceActions.${asking}Warning`, { name: device.deviceName })}</p>
      </Alert>
      <BrokerLoginDialog login={login} deviceName={device.deviceName} onClose={() => setLogin(null)} />
      <ScrapDevicesDialog devices={scrapping ? [{ deviceId: device.deviceId, deviceName: device.deviceName }] : []} onClose={() => setScrapping(false)} />
    </Card>
  );
}
