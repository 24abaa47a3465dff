import type { TFunction } from 'i18next';
import { z } from 'zod';
import { PROJECT_LIMITS } from '@/lib/api/projects';
import { hasRefusedCharacters } from '@/lib/refusedCharacters';

/** The create and rename form, checked as the server checks it, in the user's language. */
export function projectFormSchema(t: TFunction) {
  return z.object({
    projectName: z.string().trim()
      .refine((v) => [...v].length >= PROJECT_LIMITS.nameMin && [...v].length <= PROJECT_LIMITS.name,
        t('error.nameLength', { min: PROJECT_LIMITS.nameMin, max: PROJECT_LIMITS.name }))
      .refine((v) => !hasRefusedCharacters(v), t('error.nameCharacters')),
    remark: z.string().trim()
      .refine((v) => [...v].length <= PROJECT_LIMITS.remark, t('error.remarkLength', { max: PROJECT_LIMITS.remark }))
      .refine((v) => !hasRefusedCharacters(v.replace(/\n/g, ' ')), t('error.remarkCharacters')),
  });
}
export type ProjectForm = z.infer<ReturnType<typeof projectFormSchema>>;
