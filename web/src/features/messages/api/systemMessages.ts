/**
 * The message centre's system messages (invitations, expiry reminders, exports ready, payment
 * results): the caller's own, in the request's language. An invitation is answered once.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { loadSessionPermissions } from '@/app/effects';
import { ORGANIZATIONS_KEY } from '@/lib/api/organizationsKey';
import { pageOf } from '@/lib/api/page';
import { api } from '@/lib/http';

export const SYSTEM_KINDS = ['expiry', 'payment', 'export', 'invitation', 'geofence'] as const;
/** The pages a message links to, by the server's name for them (`target`). */
export const MESSAGE_TARGETS = { downloads: '/consumer/download' } as const;
export type MessageTarget = keyof typeof MESSAGE_TARGETS;
export const systemMessageSchema = z.object({
  messageId: z.number(),
  kind: z.enum(SYSTEM_KINDS),
  title: z.string(),
  content: z.string(),
  /** The page that acts on the message (an export's download centre); a target this client does not know is no link. */
  target: z.string().nullable(),
  createdAt: z.string(),
  read: z.boolean(),
  needsDecision: z.boolean(),
  decision: z.enum(['approved', 'rejected']).nullable(),
  decidedAt: z.string().nullable(),
});
export type SystemMessage = z.infer<typeof systemMessageSchema>;
export const systemMessagePageSchema = pageOf(systemMessageSchema);
export const unreadCountSchema = z.number();
export const readResultSchema = z.object({ marked: z.number() });

const KEY = ['systemMessages'];

export interface SystemQuery {
  start: number;
  pageSize: number;
  unread: boolean;
}

export function useSystemMessages(query: SystemQuery) {
  return useQuery({
    queryKey: [...KEY, 'page', query],
    queryFn: async () => systemMessagePageSchema.parse(await api.post('/base/BaseMessage/page', query)),
    placeholderData: keepPreviousData,
  });
}

export function useUnreadSystemCount() {
  return useQuery({
    queryKey: [...KEY, 'unread'],
    // A badge: when its count cannot be had, it is left off without an error notice.
    queryFn: async () => unreadCountSchema.parse(await api.get('/base/BaseMessage/unreadCount', { silent: true })),
    retry: false,
  });
}

/** Marks the given messages read (all when none are given). */
export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (messageIds?: number[]) =>
      readResultSchema.parse(await api.post('/base/BaseMessage/read', messageIds ? { messageIds } : {})),
    onSettled: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

/** Approves or rejects what a message asks; a second answer is refused by the server (1631). */
export function useAnswer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (answer: { messageId: number; decision: 'approved' | 'rejected' }) =>
      systemMessageSchema.parse(await api.post('/base/BaseMessage/answer', answer)),
    // An approved invitation makes a member at once: the organizations, the permissions and the
    // menus that follow them are read again.
    onSuccess: async (answered) => {
      if (answered.kind !== 'invitation' || answered.decision !== 'approved') return;
      await Promise.allSettled([loadSessionPermissions(), client.invalidateQueries({ queryKey: ORGANIZATIONS_KEY })]);
    },
    onSettled: () => client.invalidateQueries({ queryKey: KEY }),
  });
}
