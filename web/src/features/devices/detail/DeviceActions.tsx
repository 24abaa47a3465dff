import { Alert, AnchorButton, Button, Card } from '@blueprintjs/core';
import { ArchiveIcon, KeyIcon, ShareIcon, SwapHorizontalIcon, TrashIcon, UnarchiveIcon } from '@blueprintjs/icons';
import { useNavigate } from 'react-router';
import { useState, type JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { ReadOnlyReason } from '@/components/ReadOnly';
import { mayChange } from '@/lib/access';
import type { DeviceDetail } from '@/lib/api/devices';
import { notify } from '@/lib/notify';
import { formatInstant } from '@/lib/units';
import { usePermissions, usePermitted } from '@/lib/permissions';
import { pathOfScene } from '@/lib/deviceListQuery';
import type { Scene } from '@/lib/api/devices';
import { BrokerLoginDialog } from '../components/BrokerLoginDialog';
import { useClearData, useRestoreDevice, useRotatePassword, type BrokerLogin } from '../api/manage';
import { ScrapDevicesDialog } from './ScrapDevicesDialog';
import { ShareDevicesDialog } from '../components/ShareDevicesDialog';
import { TransferDevicesDialog } from '../components/TransferDevicesDialog';

type Action = 'rotate' | 'clear' | 'scrap' | 'restore' | 'share' | 'transfer';
const ICONS: Readonly<Record<Action, JSX.Element>> = {
  rotate: <KeyIcon />,
  clear: <TrashIcon />,
  scrap: <ArchiveIcon />,
  restore: <UnarchiveIcon />,
  share: <ShareIcon />,
  transfer: <SwapHorizontalIcon />,
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
  const [handing, setHanding] = useState<'share' | 'transfer' | null>(null);
  const mayShare = usePermissions().has('consumer.sharer');
  const navigate = useNavigate();
  const [login, setLogin] = useState<BrokerLogin | null>(null);
  const rotate = useRotatePassword();
  const clear = useClearData();
  const restore = useRestoreDevice();
  if (!permitted) return null;
  const writable = mayChange(device);
  const owner = writable && device.isOwner;
  const scrappedAt = device.scrappedAt ?? null;
  const named = { deviceId: device.deviceId, deviceName: device.deviceName };

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
    const label = key === 'share' ? t('sharing.action') : key === 'transfer' ? t('transfer.action') : t(`deviceActions.${key}`);
    const intent = key === 'clear' ? 'danger' : key === 'scrap' ? 'warning' : 'none';
    const open = () => {
      if (key === 'scrap') setScrapping(true);
      else if (key === 'share' || key === 'transfer') setHanding(key);
      else setAsking(key);
    };
    if (allowed) {
      return <Button icon={icon} intent={intent} text={label} onClick={open} data-testid={`device-${key}`} />;
    }
    const disabled = <AnchorButton icon={icon} intent={intent} disabled text={label} data-testid={`device-${key}`} />;
    return why === null ? <ReadOnlyReason device={device}>{disabled}</ReadOnlyReason> : <span title={why}>{disabled}</span>;
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
        {mayShare && (
          <div>
            {button('share', owner && !scrappedAt, writable ? t('deviceActions.ownerOnly') : null)}
            <p className="jc-tab-muted">{t('sharing.hint')}</p>
          </div>
        )}
        <div>
          {button('transfer', owner, writable ? t('deviceActions.ownerOnly') : null)}
          <p className="jc-tab-muted">{t('transfer.hint')}</p>
        </div>
      </div>
      <Alert isOpen={asking !== null} intent={asking === 'clear' ? 'danger' : 'warning'} icon={ICONS[asking ?? 'rotate']}
        cancelButtonText={t('info.cancel')} confirmButtonText={t(`deviceActions.${asking ?? 'rotate'}Confirm`)}
        loading={rotate.isPending || clear.isPending || restore.isPending} onCancel={() => setAsking(null)} onConfirm={() => void confirm()}
        canEscapeKeyCancel>
        <p data-testid="device-action-confirm">{asking && t(`deviceActions.${asking}Warning`, { name: device.deviceName })}</p>
      </Alert>
      <BrokerLoginDialog login={login} deviceName={device.deviceName} onClose={() => setLogin(null)} />
      <ShareDevicesDialog devices={handing === 'share' ? [named] : []} onClose={() => setHanding(null)} />
      <TransferDevicesDialog devices={handing === 'transfer' ? [named] : []} onClose={() => setHanding(null)}
        onTransferred={() => navigate(pathOfScene((device.typeScenes[0] ?? 1) as Scene))} />
      <ScrapDevicesDialog devices={scrapping ? [{ deviceId: device.deviceId, deviceName: device.deviceName }] : []} onClose={() => setScrapping(false)} />
    </Card>
  );
}
