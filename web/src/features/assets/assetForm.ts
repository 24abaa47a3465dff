import type { TFunction } from 'i18next';
import { z } from 'zod';
import { ASSET_LIMITS } from './api/assets';

// What the server refuses (src/core/assets/model.py): control, format and private-use characters,
// and emoji and pictographs from the arrows (U+2190) up, but not the letterlike symbols ("№", "℃")
// nor "°", "©". The server's rule decides; this only says so while typing.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\uFE00-\uFE0F]/u;

function refused(text: string): boolean {
  if (INVISIBLE.test(text)) return true;
  for (const ch of text) {
    const point = ch.codePointAt(0) ?? 0;
    if (point >= 0x2190 && !(point >= 0x2100 && point < 0x2150) && /\p{So}/u.test(ch)) return true;
  }
  return false;
}

const length = (v: string) => [...v].length;

/** The add and edit form, checked as the server checks it, in the user's language. */
export function assetFormSchema(t: TFunction) {
  const short = z.string().trim()
    .refine((v) => length(v) <= ASSET_LIMITS.field, t('error.fieldLength', { max: ASSET_LIMITS.field }))
    .refine((v) => !refused(v), t('error.characters'));
  return z.object({
    assetName: z.string().trim()
      .refine((v) => length(v) >= 1, t('error.nameRequired'))
      .refine((v) => length(v) <= ASSET_LIMITS.name, t('error.nameLength', { max: ASSET_LIMITS.name }))
      .refine((v) => !refused(v), t('error.characters')),
    assetType: short,
    assetNumber: short,
    brand: short,
    model: short,
    volume: short,
    customs: z.array(z.object({
      key: z.string().trim()
        .refine((v) => length(v) >= 1 && length(v) <= ASSET_LIMITS.key, t('error.keyLength', { max: ASSET_LIMITS.key }))
        .refine((v) => !refused(v), t('error.characters')),
      value: z.string().trim()
        .refine((v) => length(v) <= ASSET_LIMITS.value, t('error.valueLength', { max: ASSET_LIMITS.value }))
        .refine((v) => !refused(v), t('error.characters')),
    })).max(ASSET_LIMITS.attributes, t('error.attributes', { max: ASSET_LIMITS.attributes }))
      .superRefine((pairs, ctx) => {
        const seen = new Set<string>();
        pairs.forEach((pair, index) => {
          const key = pair.key.trim().toLocaleLowerCase();
          if (key && seen.has(key)) ctx.addIssue({ code: 'custom', path: [index, 'key'], message: t('error.keyTwice') });
          seen.add(key);
        });
      }),
    remark: z.string().trim()
      .refine((v) => length(v) <= ASSET_LIMITS.remark, t('error.remarkLength', { max: ASSET_LIMITS.remark }))
      .refine((v) => !refused(v.replace(/\n/g, ' ')), t('error.characters')),
  });
}
export type AssetForm = z.infer<ReturnType<typeof assetFormSchema>>;
