import type { PageLoader } from '@/app/lazy';

/** Organizations and their members, by route name (app/routes.ts). */
export const pages: Record<string, PageLoader> = {
  organizationList: () => import('./OrganizationsPage'),
};
