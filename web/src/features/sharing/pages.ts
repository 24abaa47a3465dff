import type { PageLoader } from '@/app/lazy';

/** Sharing, by route name (app/routes.ts): /consumer/sharer, its tab in the address (?tab=). */
export const pages: Record<string, PageLoader> = {
  consumerSharer: () => import('./SharingPage'),
};
