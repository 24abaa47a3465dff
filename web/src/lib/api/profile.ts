/** The profile's calls (identity dialog, account page): the two dictionaries and the profile save. */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { currentLanguage } from '@/lib/i18n';
import { api } from '@/lib/http';

export const IDENTITY_DICT = 'ELITECH_IDENTITY';
export const INDUSTRY_DICT = 'ELITECH_INDUSTRY';
export type ProfileDict = typeof IDENTITY_DICT | typeof INDUSTRY_DICT;

export const dictItemSchema = z.object({ dataCode: z.string(), dataValue: z.string(), label: z.string() });
export type DictItem = z.infer<typeof dictItemSchema>;

export async function fetchDictionary(dataType: ProfileDict): Promise<DictItem[]> {
  return z.array(dictItemSchema).parse(await api.get('/base/BaseDict/queryByType', { params: { dataType } }));
}

/** A dictionary with labels in the user's language (the language is part of the key). */
export function useDictionary(dataType: ProfileDict) {
  return useQuery({
    queryKey: ['dict', dataType, currentLanguage()],
    queryFn: () => fetchDictionary(dataType),
    staleTime: Infinity,
  });
}

export interface ProfileIdentity {
  elitechIdentity: string;
  elitechIndustry: string;
}

/** Saves identity and industry; the caller shows failures (the call is silent). */
export async function updateProfileIdentity(body: ProfileIdentity): Promise<void> {
  await api.post('/base/BaseUserProfile/update', body, { silent: true });
}

/** Switches idle protection (it works while FDA mode is on for the account's own records); silent like the rest. */
export async function updateIdleProtection(enableProtect: 0 | 1): Promise<void> {
  await api.post('/base/BaseUserProfile/update', { enableProtect }, { silent: true });
}
