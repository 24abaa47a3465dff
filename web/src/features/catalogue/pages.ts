import type { PageLoader } from '@/app/lazy';

/** The service catalogue of the back office, by route name (app/routes.ts): /service/package/:id?. */
export const pages: Record<string, PageLoader> = {
  servicePackage: () => import('./ServicePackagePage'),
};
