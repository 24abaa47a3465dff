import type { PageLoader } from '@/app/lazy';

/** The download centre, by route name (app/routes.ts). */
export const pages: Record<string, PageLoader> = {
  consumerDownload: () => import('./DownloadsPage'),
};
