import type { PageLoader } from '@/app/lazy';

/** Projects, by route name (app/routes.ts): /project/list, a project's detail opened in place (?id=). */
export const pages: Record<string, PageLoader> = {
  projectManage: () => import('./ProjectsPage'),
};
