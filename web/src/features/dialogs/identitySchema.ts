/** The identity dialog's form: identity and industry are both required (spec seed 000 section 5). */
import { z } from 'zod';
import { ApiError, CancelledError, NetworkError } from '@/lib/http';

/** The translator the messages are written with (keys of the `dialogs` namespace). */
export type T = (key: string, options?: Record<string, unknown>) => string;

export const identitySchema = (t: T) =>
  z.object({
    elitechIdentity: z.string().trim().min(1, t('identity.identityRequired')),
    elitechIndustry: z.string().trim().min(1, t('identity.industryRequired')),
  });
export type IdentityForm = z.output<ReturnType<typeof identitySchema>>;
export const IDENTITY_FIELDS = ['elitechIdentity', 'elitechIndustry'] as const;

export interface SaveFailure {
  /** Messages the server put on a field (already in the user's language). */
  fields: Partial<Record<(typeof IDENTITY_FIELDS)[number], string>>;
  /** A message for the whole dialog, or null. */
  message: string | null;
}

/** Sorts a failed save into field messages and one message for the dialog. */
export function saveFailure(error: unknown, t: T): SaveFailure {
  if (error instanceof CancelledError) return { fields: {}, message: null };
  if (error instanceof NetworkError) {
    return { fields: {}, message: t(error.reason === 'timeout' ? 'common:http.requestTimeout' : 'common:http.networkError') };
  }
  if (!(error instanceof ApiError)) return { fields: {}, message: t('common:http.errorMessage') };
  const fields: SaveFailure['fields'] = {};
  for (const name of IDENTITY_FIELDS) {
    const messages = error.errors?.[name];
    if (messages?.length) fields[name] = messages.join(' ');
  }
  return { fields, message: Object.keys(fields).length > 0 ? null : error.message };
}
