import type { PageLoader } from '@/app/lazy';

/** Waybills, by route name (app/routes.ts): /waybill/list and /waybill/detail/:waybillPk. */
export const pages: Record<string, PageLoader> = {
  waybillList: () => import('./WaybillsPage'),
  waybillDetail: () => import('./WaybillDetailPage'),
};
