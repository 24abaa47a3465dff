/**
 * GET /base/BaseAccount/newVerify: a PNG image captcha (not an envelope). Its id comes in the
 * X-Captcha-Id header and goes back in the login body as captchaId with the answer as verifyCode.
 */
import { z } from 'zod';

export const CAPTCHA_URL = '/api/base/BaseAccount/newVerify';

// Duck-typed: a Blob from another realm (a test's Response, a worker) is still an image.
const blob = z.custom<Blob>((value) => typeof value === 'object' && value !== null && 'size' in value && 'type' in value);
export const captchaSchema = z.object({ id: z.string().min(1), image: blob });
export type Captcha = z.infer<typeof captchaSchema>;

export class CaptchaUnavailableError extends Error {
  constructor(readonly status: number) {
    super(`captcha unavailable (${status})`);
    this.name = 'CaptchaUnavailableError';
  }
}

/** A fresh captcha, never from a cache (each image is valid once, for 5 minutes). */
export async function fetchCaptcha(signal?: AbortSignal): Promise<Captcha> {
  const response = await fetch(CAPTCHA_URL, { cache: 'no-store', signal });
  const id = response.headers.get('X-Captcha-Id');
  if (!response.ok || !id) throw new CaptchaUnavailableError(response.status);
  return captchaSchema.parse({ id, image: await response.blob() });
}
