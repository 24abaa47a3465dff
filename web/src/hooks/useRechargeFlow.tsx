import { useCallback, useState, type MouseEvent, type ReactElement } from 'react';
import { useSlots } from '@/lib/slots';

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
  const { RechargeFlow } = useSlots();
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
