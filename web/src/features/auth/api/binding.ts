/**
 * POST /base/BaseAccount/binding (signed in): binds a phone or e-mail with a code of type 3
 * sent to it. Refusals: 1003 wrong code, 1006 bound to another account, 1009 one already set.
 */
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/http';

/** Exactly one of phone and email. */
export type BindingBody = { code: string } & ({ phone: string; email?: never } | { email: string; phone?: never });

/** Binds the contact; failures are left to the form (silent). */
export async function fetchBinding(body: BindingBody): Promise<null> {
  return z.null().parse(await api.post('/base/BaseAccount/binding', body, { silent: true }));
}

/** The binding call as a mutation. */
export function useBinding() {
  return useMutation({ mutationFn: fetchBinding });
}
