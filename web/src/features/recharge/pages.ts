import type { PageLoader } from '@/app/lazy';

/** The recharge screens, by route name (app/routes.ts). */
export const pages: Record<string, PageLoader> = {
  consumerRecharge: () => import('./RechargePage'),
  paypalCallback: () => import('./PayPalResultPage').then((m) => ({ default: m.PayPalCallbackPage })),
  paypalCancel: () => import('./PayPalResultPage').then((m) => ({ default: m.PayPalCancelPage })),
};
