/** POST /base/BaseAccount/forgot: a new password with a code (type 2) sent to the phone or e-mail. */
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/http';

/** Exactly one of phone and email. */
export type ForgotBody = { code: string; accountPassword: string } & (
  | { phone: string; email?: never }
  | { email: string; phone?: never }
);

/** Sets the new password (and ends every open session); failures are left to the form (silent). */
export async function fetchForgot(body: ForgotBody): Promise<null> {
  return z.null().parse(await api.post('/base/BaseAccount/forgot', body, { silent: true }));
}

/** The password reset as a mutation. */
export function useForgot() {
  return useMutation({ mutationFn: fetchForgot });
}
