/**
 * The recharge drawer with the drawers it leads to: the SMS/voice drawer ("buy SMS/voice") and the
 * un-agreement modal (a level chosen while auto-renew is on); the paying drawer is the recharge
 * drawer's own. What the device screens and the expired-service dialog open.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState, type MouseEvent, type ReactElement } from 'react';
import { rechargeKeys, useDepositInfos, type DepositInfo } from './api/levels';
import { RechargeDrawer } from './RechargeDrawer';
import { SmsVoiceDrawer, type RechargeDevice } from './SmsVoiceDrawer';
import { UnAgreementDrawer } from './UnAgreementDrawer';

export interface RechargeFlowProps {
  /** Whether the recharge drawer is shown. */
  isOpen: boolean;
  /** One device, or several of one type (a batch recharge). */
  deviceIds: readonly number[];
  /** Closes the recharge drawer. */
  onClose: () => void;
  /**
   * Opens the SMS/voice drawer directly for these devices (the recharge page's "Buy SMS/voice"),
   * without the recharge drawer; null or absent: not asked for. `onAlertsClose` says it closed.
   */
  alertDeviceIds?: readonly number[] | null;
  onAlertsClose?: () => void;
}

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

/**
 * The recharge flow of a screen: `open(deviceIds)` shows it, `openAlerts(deviceIds)` shows the
 * SMS/voice drawer alone, `drawer` is what the screen renders.
 * `openOnClick(deviceIds)` suits a link to the recharge page: a plain click opens the drawer
 * instead, a click meant for a new tab or window still follows the link.
 */
export function useRechargeFlow(): {
  open: (deviceIds: readonly number[]) => void;
  openAlerts: (deviceIds: readonly number[]) => void;
  openOnClick: (deviceIds: readonly number[]) => (event: MouseEvent) => void;
  drawer: ReactElement;
} {
  const [state, setState] = useState<{ isOpen: boolean; deviceIds: readonly number[] }>({ isOpen: false, deviceIds: [] });
  const open = useCallback((deviceIds: readonly number[]) => setState({ isOpen: true, deviceIds: [...deviceIds] }), []);
  const close = useCallback(() => setState((current) => ({ ...current, isOpen: false })), []);
  const [alertIds, setAlertIds] = useState<readonly number[] | null>(null);
  const openAlerts = useCallback((deviceIds: readonly number[]) => setAlertIds([...deviceIds]), []);
  const openOnClick = (deviceIds: readonly number[]) => (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    open(deviceIds);
  };
  const drawer = (
    <RechargeFlow
      isOpen={state.isOpen}
      deviceIds={state.deviceIds}
      onClose={close}
      alertDeviceIds={alertIds}
      onAlertsClose={() => setAlertIds(null)}
    />
  );
  return { open, openAlerts, openOnClick, drawer };
}
