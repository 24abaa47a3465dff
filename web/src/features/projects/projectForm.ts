import type { TFunction } from 'i18next';
import { z } from 'zod';
import { PROJECT_LIMITS } from '@/lib/api/projects';

// What the server refuses in a name (src/core/projects/model.py): emoji and other symbols, control
// and format characters. The server's rule decides; this only says so while typing.
const REFUSED = /[\p{So}\p{Cc}\p{Cf}\p{Co}\uFE00-\uFE0F]/u;

/** The create and rename form, checked as the server checks it, in the user's language. */
export function projectFormSchema(t: TFunction) {
  return z.object({
    projectName: z.string().trim()
      .refine((v) => [...v].length >= PROJECT_LIMITS.nameMin && [...v].length <= PROJECT_LIMITS.name,
        t('error.nameLength', { min: PROJECT_LIMITS.nameMin, max: PROJECT_LIMITS.name }))
      .refine((v) => !REFUSED.test(v), t('error.nameCharacters')),
    remark: z.string().trim()
      .refine((v) => [...v].length <= PROJECT_LIMITS.remark, t('error.remarkLength', { max: PROJECT_LIMITS.remark }))
      .refine((v) => !REFUSED.test(v.replace(/\n/g, ' ')), t('error.remarkCharacters')),
  });
}
export type ProjectForm = z.infer<ReturnType<typeof projectFormSchema>>;
