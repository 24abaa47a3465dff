import type { PageLoader } from '@/app/lazy';

export const pages: Record<string, PageLoader> = {
  home: () => import('./HomePage'),
};
