import type { PageLoader } from '@/app/lazy';

/** User administration, by route name (app/routes.ts): /operation/consumer/list and /operation/consumer/role. */
export const pages: Record<string, PageLoader> = {
  systemConsumers: () => import('./UsersPage'),
  systemRoles: () => import('./RolesPage'),
};
