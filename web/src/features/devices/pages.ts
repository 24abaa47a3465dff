import type { PageLoader } from '@/app/lazy';

/** The device screens, by route name (app/routes.ts): the list's three tabs and the detail page. */
export const pages: Record<string, PageLoader> = {
  deviceList: () => import('./DeviceListPage'),
  storageList: () => import('./DeviceListPage'),
  freezerList: () => import('./DeviceListPage'),
  deviceDetail: () => import('./DeviceDetailPage'),
};
