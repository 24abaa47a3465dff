import type { PageLoader } from '@/app/lazy';

/** Assets, by route name (app/routes.ts): /asset/list and /asset/detail/:id. */
export const pages: Record<string, PageLoader> = {
  assetList: () => import('./AssetsPage'),
  assetDetail: () => import('./AssetDetailPage'),
};
