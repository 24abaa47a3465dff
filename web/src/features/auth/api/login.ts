/** POST /base/BaseAccount/login from the login form (loginType 1), with the captcha once shown. */
import { useMutation } from '@tanstack/react-query';
import { login, type IssuedToken, type LoginBody } from '@/lib/api/session';

export interface PasswordLogin {
  userName: string;
  accountPassword: string;
  /** The captcha's answer and id, once the captcha is shown. */
  captcha?: { verifyCode: string; captchaId: string };
}

/** The body the server expects: the captcha fields only when a captcha was answered. */
export function loginBody({ userName, accountPassword, captcha }: PasswordLogin): LoginBody {
  return captcha ? { userName, accountPassword, loginType: 1, ...captcha } : { userName, accountPassword, loginType: 1 };
}

/** Logs in; a refusal is toasted by the client and rejected as an ApiError. */
export function fetchPasswordLogin(input: PasswordLogin): Promise<IssuedToken> {
  return login(loginBody(input));
}

/** The password login as a mutation. */
export function useLogin() {
  return useMutation({ mutationFn: fetchPasswordLogin });
}
