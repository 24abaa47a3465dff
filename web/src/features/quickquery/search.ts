/** The search a quick-query address holds: `?id=` the waybill number (or GUID with `by=guid`). */
import { z } from 'zod';
import type { TFunction } from 'i18next';
import { QUERY_LIMITS, type Search, type SearchKind } from './api/quickQuery';

export function searchOf(params: URLSearchParams): Search | null {
  const value = (params.get('id') ?? '').trim();
  if (!value) return null;
  const kind: SearchKind = params.get('by') === 'guid' ? 'guid' : 'number';
  return value.length <= QUERY_LIMITS[kind] ? { kind, value } : null;
}

export function searchParams(search: Search): Record<string, string> {
  return search.kind === 'guid' ? { id: search.value, by: 'guid' } : { id: search.value };
}

/** The form's rule, the server's bounds, in the reader's language. */
export function searchFormSchema(t: TFunction) {
  return z
    .object({ kind: z.enum(['number', 'guid']), value: z.string().trim().min(1, t('required')) })
    .superRefine((form, ctx) => {
      const max = QUERY_LIMITS[form.kind];
      if (form.value.length > max) ctx.addIssue({ code: 'custom', path: ['value'], message: t('tooLong', { max }) });
    });
}
export type SearchForm = z.infer<ReturnType<typeof searchFormSchema>>;
