import type { PageLoader } from '@/app/lazy';

/** Geofences, by route name (app/routes.ts). */
export const pages: Record<string, PageLoader> = {
  geofence: () => import('./GeofencePage'),
};
