import type { PageLoader } from '@/app/lazy';

export const pages: Record<string, PageLoader> = {
  login: () => import('./LoginPage'),
};
