import type { PageLoader } from '@/app/lazy';

/** Scheduled reports, by route name (app/routes.ts). */
export const pages: Record<string, PageLoader> = {
  scheduledBackup: () => import('./ReportsPage'),
};
