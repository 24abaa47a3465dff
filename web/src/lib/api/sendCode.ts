/**
 * GET /base/BaseAccount/code/phone?phone=&type= and /code/email?email=&type=: sends a 6-digit
 * code, valid 10 minutes, at most one a minute (else business code 1007 "wait N seconds").
 */
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/http';

/** Where a code goes. */
export type Channel = 'phone' | 'email';

/** What the code is for: 1 sign-up, 2 reset password, 3 bind. */
export const CODE_TYPES = { register: 1, recover: 2, bind: 3 } as const;
export type CodeType = (typeof CODE_TYPES)[keyof typeof CODE_TYPES];

/** Seconds before another code may be asked for. */
export const RESEND_SECONDS = 60;

export interface CodeRequest {
  channel: Channel;
  /** The phone number or e-mail address the code goes to. */
  target: string;
  type: CodeType;
}

/** Sends the code; failures are left to the caller to show (silent). */
export async function fetchSendCode({ channel, target, type }: CodeRequest): Promise<null> {
  const params = channel === 'phone' ? { phone: target, type } : { email: target, type };
  return z.null().parse(await api.get(`/base/BaseAccount/code/${channel}`, { params, silent: true }));
}

/** Sending a code as a mutation. */
export function useSendCode() {
  return useMutation({ mutationFn: fetchSendCode });
}
