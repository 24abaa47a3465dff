import { z } from 'zod';
import { api } from '@/lib/http/index';

export const tokenSchema = z.object({ token: z.string(), expiresAt: z.string() });
export type IssuedToken = z.infer<typeof tokenSchema>;

/** A password login (with the image code once asked for), or a login with a one-time code. */
export interface LoginBody {
  userName: string;
  accountPassword?: string;
  loginType: 1 | 4;
  verifyCode?: string;
  captchaId?: string;
  loginCode?: string;
}

export async function login(body: LoginBody, silent = false): Promise<IssuedToken> {
  return tokenSchema.parse(await api.post('/base/BaseAccount/login', body, { silent }));
}

/** Revokes the token on the server; the caller clears the local session whatever happens. */
export async function logoutCall(): Promise<void> {
  await api.get('/base/BaseAccount/loginOut', { silent: true });
}
