import type { PageLoader } from '@/app/lazy';

/** The recharge screens, by route name (app/routes.ts). */
export const pages: Record<string, PageLoader> = {
  consumerRecharge: () => import('./RechargePage'),
};
