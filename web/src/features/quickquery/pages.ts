import type { PageLoader } from '@/app/lazy';

/** The public quick query of waybills, by route name (app/routes.ts). */
export const pages: Record<string, PageLoader> = {
  pcQuickWaybill: () => import('./QuickSearchPage').then((m) => ({ default: m.DesktopSearch })),
  pcQuickWaybillDetail: () => import('./TripDetailPage').then((m) => ({ default: m.DesktopDetail })),
  mobileQuickWaybill: () => import('./QuickSearchPage').then((m) => ({ default: m.MobileSearch })),
  mobileQuickWaybillDetail: () => import('./TripDetailPage').then((m) => ({ default: m.MobileDetail })),
  mobileQuickQuery: () => import('./VerifyPage'),
  mobileQuickQueryDetail: () => import('./SharedTripPage'),
  quickQuery: () => import('./QuickSearchPage').then((m) => ({ default: m.DesktopSearch })),
};
