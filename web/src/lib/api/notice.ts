/** The notice shown after login (spec seed 000 section 7): platform camp, web platform, type 1. */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { cachedCustomPage } from '@/lib/api/customPage';
import { api } from '@/lib/http/index';

export const NOTICE_PLATFORM_WEB = 1;
export const NOTICE_TYPE_POPUP = 1;

export const noticeSchema = z.object({ noticeId: z.number(), noticeContent: z.string() });
export type Notice = z.infer<typeof noticeSchema>;

/** The white-label platform's camp, else 0 (the main platform). */
export function noticeCamp(): number {
  return cachedCustomPage()?.defaultCamp ?? 0;
}

export async function fetchNotice(camp: number): Promise<Notice | null> {
  const data = await api.post(
    '/base/BaseNotice/queryNotice',
    { noticeCamp: camp, noticePlatform: NOTICE_PLATFORM_WEB, noticeType: NOTICE_TYPE_POPUP },
    { silent: true },
  );
  return noticeSchema.nullable().parse(data ?? null);
}

/** The current notice of this platform, or null. */
export function useNotice() {
  const camp = noticeCamp();
  return useQuery({ queryKey: ['notice', 'current', camp], queryFn: () => fetchNotice(camp), staleTime: 300_000 });
}
