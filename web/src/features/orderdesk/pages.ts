import type { PageLoader } from '@/app/lazy';

/** The order back office, by route name (app/routes.ts): /operation/recharge. */
export const pages: Record<string, PageLoader> = {
  rechargeOrders: () => import('./OrdersPage'),
};
