/**
 * The recharge page (/consumer/recharge, user centre → Recharge): the caller's devices to choose
 * for a recharge (one, or several of one type) or for SMS and voice packages, and the caller's
 * orders. `?deviceIds=1,2` (the device screens' recharge links opened in a new tab, a reload)
 * opens the recharge drawer for those devices at once; closing it takes the parameter away
 * (replacing the history entry), so a reload does not open it again. `?tab=orders` shows the orders,
 * `?tab=invoices` the invoice requests.
 */
import { Card, Classes, H2, Tab, Tabs } from '@blueprintjs/core';
import { CreditCardIcon, DocumentIcon, ThListIcon } from '@blueprintjs/icons';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { parseDeviceIds } from '@/lib/batchSelection';
import { MyInvoices } from './components/MyInvoices';
import { MyOrders } from './components/MyOrders';
import { RechargeDevices } from './components/RechargeDevices';
import { RechargeFlow } from './RechargeFlow';
import './rechargePage.css';

export const DEVICE_IDS_PARAM = 'deviceIds';
export const TAB_PARAM = 'tab';
export const RECHARGE_TABS = ['devices', 'orders', 'invoices'] as const;
export type RechargeTab = (typeof RECHARGE_TABS)[number];

function tabOf(value: string | null): RechargeTab {
  return value === 'orders' || value === 'invoices' ? value : 'devices';
}

/** The recharge page; see the module comment. */
export default function RechargePage() {
  const { t } = useTranslation(['recharge', 'app']);
  const [params, setParams] = useSearchParams();
  const tab = tabOf(params.get(TAB_PARAM));
  const linked = parseDeviceIds(params.get(DEVICE_IDS_PARAM));
  const linkKey = linked ? linked.join(',') : null;

  // The ids stay while the drawer slides away, so its content does not vanish mid-way.
  const [flow, setFlow] = useState<{ isOpen: boolean; deviceIds: readonly number[] }>({ isOpen: false, deviceIds: [] });
  const [alertIds, setAlertIds] = useState<readonly number[] | null>(null);

  // An address with devices opens the drawer for them (on arrival, or when a link changes it).
  useEffect(() => {
    if (linkKey !== null) setFlow({ isOpen: true, deviceIds: linkKey.split(',').map(Number) });
  }, [linkKey]);

  const open = useCallback((deviceIds: readonly number[]) => setFlow({ isOpen: true, deviceIds: [...deviceIds] }), []);
  const close = useCallback(() => {
    setFlow((current) => ({ ...current, isOpen: false }));
    setParams(
      (current) => {
        if (!current.has(DEVICE_IDS_PARAM)) return current;
        const next = new URLSearchParams(current);
        next.delete(DEVICE_IDS_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [setParams]);

  const changeTab = (next: RechargeTab) =>
    setParams(
      (current) => {
        const copy = new URLSearchParams(current);
        if (next === 'devices') copy.delete(TAB_PARAM);
        else copy.set(TAB_PARAM, next);
        return copy;
      },
      { replace: true },
    );

  return (
    <div className="jc-rpage" data-testid="recharge-page">
      <header className="jc-rpage-head">
        <H2 className="jc-rpage-title">{t('app:route.consumerRecharge')}</H2>
        <p className={Classes.TEXT_MUTED}>{t('recharge.page.subtitle')}</p>
      </header>
      <Card className="jc-rpage-card" elevation={0}>
        <Tabs
          id="jc-recharge-tabs"
          className="jc-rpage-tabs"
          selectedTabId={tab}
          onChange={(id) => changeTab(tabOf(String(id)))}
          size="large"
        >
          <Tab id="devices" icon={<CreditCardIcon />} title={t('recharge.page.tabs.devices')} data-testid="recharge-tab-devices" />
          <Tab id="orders" icon={<ThListIcon />} title={t('recharge.page.tabs.orders')} data-testid="recharge-tab-orders" />
          <Tab id="invoices" icon={<DocumentIcon />} title={t('rechargeInvoices.tab')} data-testid="recharge-tab-invoices" />
        </Tabs>
        {tab === 'devices' ? <RechargeDevices onRecharge={open} onBuyAlerts={setAlertIds} /> : tab === 'orders' ? <MyOrders /> : <MyInvoices />}
      </Card>
      <RechargeFlow
        isOpen={flow.isOpen}
        deviceIds={flow.deviceIds}
        onClose={close}
        alertDeviceIds={alertIds}
        onAlertsClose={() => setAlertIds(null)}
      />
    </div>
  );
}
