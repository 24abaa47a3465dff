import type { PageLoader } from '@/app/lazy';

/** The FDA 21 CFR Part 11 page, by route name (app/routes.ts): /fda. */
export const pages: Record<string, PageLoader> = {
  fda: () => import('./FdaPage'),
};
