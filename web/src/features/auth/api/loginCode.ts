/**
 * POST /base/BaseAccount/code/login: sends a one-time login code (6 digits, 10 minutes, once a
 * minute) to the account's e-mail, else its phone; it needs the image code and is answered alike
 * whether or not the name exists. The code then logs in as `loginCode`, standing for the password
 * and the image code: the owner's way in while an attack protects the account.
 */
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { login, type IssuedToken } from '@/lib/api/session';
import { api } from '@/lib/http';

export interface LoginCodeRequest {
  userName: string;
  verifyCode: string;
  captchaId: string;
}

/** Asks for the code; failures are left to the form (silent). */
export async function fetchSendLoginCode(body: LoginCodeRequest): Promise<null> {
  return z.null().parse(await api.post('/base/BaseAccount/code/login', body, { silent: true }));
}

export function useSendLoginCode() {
  return useMutation({ mutationFn: fetchSendLoginCode });
}

/** Logs in with the code received. */
export function fetchCodeLogin({ userName, loginCode }: { userName: string; loginCode: string }): Promise<IssuedToken> {
  return login({ userName, loginCode, loginType: 1 }, true);
}

export function useCodeLogin() {
  return useMutation({ mutationFn: fetchCodeLogin });
}
