/**
 * "Change platform" (spec seed 000 sections 2 and 7): the caller confirms their credentials and
 * gets a token to open the other platform with.
 */
import { z } from 'zod';
import { tokenSchema, type IssuedToken } from '@/lib/api/session';
import { editionConfig } from '@/lib/config';
import { api } from '@/lib/http';

export const platformSwitchSchema = z.object({
  userName: z.string(),
  accountPassword: z.string(),
  phone: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
});
export type PlatformSwitchBody = z.infer<typeof platformSwitchSchema>;

/** The body without its empty fields (the server refuses empty strings). */
export function switchBody(body: PlatformSwitchBody): Record<string, string> {
  const entries = Object.entries(body).filter((entry): entry is [string, string] =>
    typeof entry[1] === 'string' && entry[1].trim() !== '');
  return Object.fromEntries(entries);
}

/** Asks for a token of the other platform; fails with the server's answer (a wrong password is code 1008). */
export async function requestPlatformToken(body: PlatformSwitchBody): Promise<IssuedToken> {
  const data = await api.post('/base/BaseAccount/login/toOldPaltform', switchBody(body), { silent: true });
  return tokenSchema.parse(data);
}

/**
 * Where the other platform opens with a token. Its address may be configured as the external link
 * `oldPlatform`; without one, the token opens this origin (the guard adopts a `token` query).
 */
export function otherPlatformUrl(token: string, origin: string = window.location.origin): string {
  const base = editionConfig().externalLinks?.oldPlatform ?? `${origin}/`;
  const url = new URL(base, origin);
  url.searchParams.set('token', token);
  return url.toString();
}
