import { AnchorButton, Button, Card, Classes } from '@blueprintjs/core';
import { CreditCardIcon, MobilePhoneIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { ServiceExpiry } from '@/components/DeviceTags';
import { ReadOnlyReason } from '@/components/ReadOnly';
import { useRechargeFlow } from '@/hooks/useRechargeFlow';
import { mayOperate } from '@/lib/access';
import type { DeviceDetail } from '@/lib/api/devices';
import { usePermissions } from '@/lib/permissions';
import { useSlots } from '@/lib/slots';
import { NO_VALUE } from '@/lib/units';

/**
 * The recharge tab: the device's service (level, expiry, SMS and voice left, auto-renew) and the
 * recharge flow for this device alone (the recharge feature's drawers, reached through app slots).
 */
export function RechargeTab({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('devices');
  const mayRecharge = usePermissions().has('consumer.recharge');
  const writable = mayOperate(device, 'recharge');
  const recharge = useRechargeFlow();
  const { AutoRenewTag } = useSlots();
  const facts: [string, string, React.ReactNode][] = [
    ['level', t('info.field.level'), device.levelName ?? <span className={Classes.TEXT_MUTED}>{NO_VALUE}</span>],
    ['expiry', t('info.field.expiry'), <ServiceExpiry device={device} />],
    ['sms', t('info.field.sms'), String(device.smsCount)],
    ['voice', t('info.field.voice'), String(device.voiceCount)],
  ];
  // A scrapped device is not recharged until its owner restores it (the server refuses it too).
  const scrapped = Boolean(device.scrappedAt);
  const action = (key: 'renew' | 'alerts', icon: React.ReactElement, onClick: () => void) => {
    if (writable && !scrapped) {
      return (
        <Button intent={key === 'renew' ? 'primary' : 'none'} icon={icon} text={t(`rechargeTab.${key}`)} onClick={onClick}
          data-testid={`recharge-tab-${key}`} />
      );
    }
    const disabled = <AnchorButton icon={icon} disabled text={t(`rechargeTab.${key}`)} data-testid={`recharge-tab-${key}`} />;
    return scrapped ? <span title={t('rechargeTab.scrapped')}>{disabled}</span> : <ReadOnlyReason device={device}>{disabled}</ReadOnlyReason>;
  };
  return (
    <div className="jc-tab-recharge" data-testid="device-recharge">
      <Card elevation={0} className="jc-tab-card">
        <h3 className="jc-tab-title">{t('rechargeTab.title')}</h3>
        <dl className="jc-info-grid">
          {facts.map(([key, label, value]) => (
            <div key={key} className="jc-info-item" data-testid={`recharge-tab-${key}`}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        {device.agreementStatus > 0 && (
          <p>
            <AutoRenewTag device={{ deviceId: device.deviceId, deviceName: device.deviceName }} readOnly={!writable} />
          </p>
        )}
        {mayRecharge ? (
          <div className="jc-tab-actions">
            {action('renew', <CreditCardIcon />, () => recharge.open([device.deviceId]))}
            {action('alerts', <MobilePhoneIcon />, () => recharge.openAlerts([device.deviceId]))}
          </div>
        ) : (
          <p className="jc-tab-muted" data-testid="recharge-tab-no-permission">{t('rechargeTab.noPermission')}</p>
        )}
      </Card>
      {recharge.drawer}
    </div>
  );
}
