/**
 * White-label data of the host the console is opened on. Cached under jc__customData; a 403
 * answer clears the cache, any other failure keeps using it (spec seed 000 section 8).
 */
import { z } from 'zod';
import { api, ApiError } from '@/lib/http/index';
import { KEYS, read, remove, write } from '@/lib/storage';

export const customPageSchema = z.object({
  id: z.number(),
  topDomain: z.string(),
  companyName: z.string().nullable().optional(),
  title: z.string(),
  indexLogo: z.string().nullable().optional(),
  browserLogo: z.string().nullable().optional(),
  loginLogo: z.string().nullable().optional(),
  backGroundLogo: z.string().nullable().optional(),
  themeColor: z.string().nullable().optional(),
  styleModel: z.string().nullable().optional(),
  defaultCamp: z.number(),
  enableRegister: z.number(),
  useElitechLogo: z.number(),
  forceHttps: z.number(),
  loginPage: z.string().nullable().optional(),
  recordCompany: z.string().nullable().optional(),
  recordNumber: z.string().nullable().optional(),
  recordConnection: z.string().nullable().optional(),
  policeFiling: z.string().nullable().optional(),
  policeConnection: z.string().nullable().optional(),
});
export type CustomPage = z.infer<typeof customPageSchema>;

export function cachedCustomPage(): CustomPage | null {
  const cached = customPageSchema.nullable().safeParse(read<unknown>(KEYS.customData, null));
  return cached.success ? cached.data : null;
}

export async function loadCustomPage(host: string = window.location.hostname): Promise<CustomPage | null> {
  try {
    const data = await api.get('/base/BaseCustomPage/queryByTopDomain', { params: { topDomain: host }, silent: true });
    const page = customPageSchema.nullable().parse(data);
    if (page) write(KEYS.customData, page);
    else remove(KEYS.customData);
    return page;
  } catch (error) {
    if (error instanceof ApiError && error.code === 403) {
      remove(KEYS.customData);
      return null;
    }
    return cachedCustomPage();
  }
}
