import type { PageLoader } from '@/app/lazy';

/** The user centre's own account page, by route name (app/routes.ts). */
export const pages: Record<string, PageLoader> = {
  consumerInfo: () => import('./AccountPage'),
};
