/** POST /base/BaseAccount/register: a personal account from a user name, password and a coded contact. */
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/http';

export const registeredSchema = z.object({ token: z.string().min(1), expiresAt: z.string() });
export type Registered = z.infer<typeof registeredSchema>;

/** Exactly one of phone and email. */
export type RegisterBody = { userName: string; accountPassword: string; code: string } & (
  | { phone: string; email?: never }
  | { email: string; phone?: never }
);

/** Creates the account and signs it in; failures are left to the form (silent). */
export async function fetchRegister(body: RegisterBody): Promise<Registered> {
  return registeredSchema.parse(await api.post('/base/BaseAccount/register', body, { silent: true }));
}

/** The registration as a mutation. */
export function useRegister() {
  return useMutation({ mutationFn: fetchRegister });
}
