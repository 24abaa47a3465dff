import type { PageLoader } from '@/app/lazy';

/** Organizations, their members and their roles, by route name (app/routes.ts). */
export const pages: Record<string, PageLoader> = {
  organizationList: () => import('./OrganizationsPage'),
  consumerRole: () => import('./RolesPage'),
};
