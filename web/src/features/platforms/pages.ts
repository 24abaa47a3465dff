import type { PageLoader } from '@/app/lazy';

/** White-label platforms and their payment configuration, by route name (app/routes.ts): /customized/list. */
export const pages: Record<string, PageLoader> = {
  customizedList: () => import('./PlatformsPage'),
};
