import type { PageLoader } from '@/app/lazy';

/** The recharge statistics, by route name (app/routes.ts): /operation/rechargeStatistics. */
export const pages: Record<string, PageLoader> = {
  rechargeStatistics: () => import('./RechargeStatisticsPage'),
};
