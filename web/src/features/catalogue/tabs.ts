import type { ComponentType } from 'react';

/** One tab of the service package configuration (spec 001 section 2: packages, promotions, SMS
 * packages, voice packages, and the coupons and recharge cards the promotions issue). Each area
 * adds its own entry; the page shows the tabs whose permission the operator holds. */
export interface CatalogueTab {
  id: string;
  /** i18n key of the tab's title, with its namespace (`catalogue:tab.packages`). */
  title: string;
  /** The permission (catalogue name) that shows the tab. */
  permission: string;
  panel: () => Promise<{ default: ComponentType }>;
}

export const CATALOGUE_TABS: CatalogueTab[] = [
  // the catalogue proper: packages (with their levels, durations and device types), items, free gift
  { id: 'packages', title: 'catalogue:tab.packages', permission: 'order.servicePackage:query',
    panel: () => import('./components/PackagesPanel') },
  { id: 'items', title: 'catalogue:tab.items', permission: 'order.servicePackage:query',
    panel: () => import('./components/ItemsPanel') },
  { id: 'gift', title: 'catalogue:tab.gift', permission: 'order.servicePackage:query',
    panel: () => import('./components/GiftPanel') },
  // promotions and SMS/voice packages (features/promotions), then coupons and recharge cards
  // (features/vouchers): features do not import each other, so app/catalogueTabs reaches their panels
  { id: 'promotions', title: 'promotions:tab.promotions', permission: 'order.servicePackage:query',
    panel: () => import('@/app/catalogueTabs').then((tabs) => tabs.promotionsPanel()) },
  { id: 'sms', title: 'promotions:tab.sms', permission: 'order.servicePackage:query',
    panel: () => import('@/app/catalogueTabs').then((tabs) => tabs.smsPanel()) },
  { id: 'voice', title: 'promotions:tab.voice', permission: 'order.servicePackage:query',
    panel: () => import('@/app/catalogueTabs').then((tabs) => tabs.voicePanel()) },
  { id: 'sales', title: 'promotions:tab.sales', permission: 'order.servicePackage:query',
    panel: () => import('@/app/catalogueTabs').then((tabs) => tabs.salesPanel()) },
  { id: 'coupons', title: 'vouchers:tab.coupons', permission: 'order.servicePackage:query',
    panel: () => import('@/app/catalogueTabs').then((tabs) => tabs.couponsPanel()) },
  { id: 'cards', title: 'vouchers:tab.cards', permission: 'order.servicePackage:query',
    panel: () => import('@/app/catalogueTabs').then((tabs) => tabs.cardsPanel()) },
];
