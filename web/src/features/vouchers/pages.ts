import type { PageLoader } from '@/app/lazy';

/** The customer's activity centre, by route name (app/routes.ts): /activities/list. */
export const pages: Record<string, PageLoader> = {
  activitiesList: () => import('./ActivitiesPage'),
};
