import type { PageLoader } from '@/app/lazy';

/** Offline purchases, by route name (app/routes.ts): /operation/offlinebuy and /operation/offlineExamine. */
export const pages: Record<string, PageLoader> = {
  offlineBuy: () => import('./OfflineBuyPage'),
  offlineExamine: () => import('./OfflineExaminePage'),
};
