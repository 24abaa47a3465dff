import type { PageLoader } from '@/app/lazy';

/**
 * The calibration lab's screens, by route name (app/routes.ts): its login and the quick orders. The
 * applications (with the price list) and one application with its certificates (OrdersPage,
 * OrderDetailPage) share their routes with the customer's own list: app/calibrationOrders chooses.
 */
export const pages: Record<string, PageLoader> = {
  calibrationAdminLogin: () => import('./LabLoginPage'),
  calibrationQuickOrders: () => import('./QuickOrdersPage'),
};
