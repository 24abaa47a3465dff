/**
 * The recharge drawer with the drawers it leads to: the SMS/voice drawer ("buy SMS/voice") and the
 * un-agreement modal (a level chosen while auto-renew is on); the paying drawer is the recharge
 * drawer's own. What the device screens and the expired-service dialog open (hooks/useRechargeFlow).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { rechargeKeys, useDepositInfos, type DepositInfo } from './api/levels';
import { RechargeDrawer } from './RechargeDrawer';
import { SmsVoiceDrawer, type RechargeDevice } from './SmsVoiceDrawer';
import { UnAgreementDrawer } from './UnAgreementDrawer';
import type { RechargeFlowProps } from '@/lib/slots';


function alertDevice(device: DepositInfo): RechargeDevice {
  const { deviceId, deviceName, countryCode, simIccid, smsCount, voiceCount } = device;
  return { deviceId, deviceName, countryCode, simIccid, smsCount, voiceCount };
}

/** The recharge drawer and the drawers it opens; see the module comment. */
export function RechargeFlow({ isOpen, deviceIds, onClose, alertDeviceIds = null, onAlertsClose }: RechargeFlowProps) {
  const queryClient = useQueryClient();
  const [ownAlertIds, setAlertIds] = useState<readonly number[] | null>(null);
  // The recharge drawer's "Buy SMS/voice" comes first; else what the screen asked for.
  const alertIds = ownAlertIds ?? alertDeviceIds;
  const [agreementId, setAgreementId] = useState<number | null>(null);
  // The recharge drawer has asked for these devices already: answered from the cache.
  const infos = useDepositInfos(alertIds ?? [], alertIds !== null);
  const alertDevices = infos.flatMap((query) => (query.data ? [alertDevice(query.data)] : []));
  const agreementDevice = agreementId === null ? undefined : queryClient.getQueryData<DepositInfo>(rechargeKeys.deposit(agreementId));
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: rechargeKeys.all });
    void queryClient.invalidateQueries({ queryKey: ['devices'] });
  };

  return (
    <>
      <RechargeDrawer
        isOpen={isOpen}
        deviceIds={deviceIds}
        onClose={onClose}
        onBuyAlerts={setAlertIds}
        onAgreement={setAgreementId}
      />
      <SmsVoiceDrawer
        isOpen={alertIds !== null && alertDevices.length === alertIds.length}
        devices={alertDevices}
        onClose={() => {
          if (ownAlertIds !== null) setAlertIds(null);
          else onAlertsClose?.();
        }}
        onPaid={refresh}
      />
      {agreementId !== null && (
        <UnAgreementDrawer
          isOpen
          device={{ deviceId: agreementId, deviceName: agreementDevice?.deviceName ?? null }}
          onClose={() => setAgreementId(null)}
          onClosed={refresh}
        />
      )}
    </>
  );
}
