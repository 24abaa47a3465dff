/** Form rules of the sign-in pages (spec seed 001 section 5), shared by forms and tests. */
import { z } from 'zod';

type T = (key: string, options?: Record<string, unknown>) => string;

export const loginSchema = (t: T) =>
  z.object({
    userName: z.string().trim().min(1, t('auth:required', { field: t('auth:userName') })).max(200),
    accountPassword: z.string().min(1, t('auth:required', { field: t('auth:password') })).max(128),
    verifyCode: z.string().max(10).optional(),
  });
export type LoginForm = z.infer<ReturnType<typeof loginSchema>>;
