import type { PageLoader } from '@/app/lazy';
import { ErrorPage } from './ErrorPage';

// The error pages are part of the shell's own chunk (the router shows them too), so they load at once.
const page = (code: 403 | 404 | 500): PageLoader => () =>
  Promise.resolve({ default: () => <ErrorPage code={code} /> });

export const pages: Record<string, PageLoader> = {
  notFound: page(404),
  forbidden: page(403),
  serverError: page(500),
};
