import type { PageLoader } from '@/app/lazy';

/** The message centre, by route name (app/routes.ts). */
export const pages: Record<string, PageLoader> = {
  messageList: () => import('./MessageListPage'),
};
