import type { PageLoader } from '@/app/lazy';

/** The sign-in screens, by route name (app/routes.ts). */
export const pages: Record<string, PageLoader> = {
  login: () => import('./LoginPage'),
  register: () => import('./RegisterPage'),
  recover: () => import('./RecoverPage'),
  loginResult: () => import('./LoginResultPage'),
  bindPhone: () => import('./BindPhonePage'),
  bindEmail: () => import('./BindEmailPage'),
};
