import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export const CHUNK_TIMEOUT_MS = 120_000; // spec seed 000 section 9

export type PageLoader = () => Promise<{ default: ComponentType }>;

/** A lazily loaded page whose chunk must arrive within 120 s, else the error page shows. */
export function lazyPage(load: PageLoader, timeoutMs = CHUNK_TIMEOUT_MS): LazyExoticComponent<ComponentType> {
  return lazy(
    () =>
      new Promise<{ default: ComponentType }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('chunk load timed out')), timeoutMs);
        load().then(
          (module) => {
            clearTimeout(timer);
            resolve(module);
          },
          (error: unknown) => {
            clearTimeout(timer);
            reject(error instanceof Error ? error : new Error('chunk load failed'));
          },
        );
      }),
  );
}
