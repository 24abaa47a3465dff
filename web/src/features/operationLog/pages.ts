import type { PageLoader } from '@/app/lazy';

/** The operation log, by route name (app/routes.ts): /operation/log. */
export const pages: Record<string, PageLoader> = {
  operationLog: () => import('./OperationLogPage'),
};
