/**
 * Refunds in the order back office (/payment/PayRefund/..., permission order.recharge:refund):
 * POST preview (what a refund of an amount would take back, and whether it needs approval),
 * refundOrder (all or part, with a reason), approve and reject (a second operator's decision on a
 * refund awaiting approval) and GET awaitingList. Every change reads the list, the dossier, the
 * awaiting refunds and the previews again (all under orderKeys.all).
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/http/index';
import { orderKeys, refundQuoteSchema, refundSchema } from './orders';

/** What refunding `amount` cents (null: all that may still be refunded) would do; shown by the dialog, not as a toast. */
export async function previewRefund(orderId: number, amount: number | null) {
  return refundQuoteSchema.parse(await api.post('/payment/PayRefund/preview', amount === null ? { orderId } : { orderId, amount },
    { silent: true }));
}

/** A refusal (too much, not refundable, the provider's no) is shown by the dialog. */
export async function refundOrder(orderId: number, amount: number, reason: string) {
  return refundSchema.parse(await api.post('/payment/PayRefund/refundOrder', { orderId, amount, reason }, { silent: true }));
}

/** A second operator's decision, with an optional note; the HTTP client shows a refusal (the operator who asked,
 * decided already). */
export async function decideRefund(refundId: number, approve: boolean, note: string) {
  const body = note ? { refundId, note } : { refundId };
  const answer = approve ? await api.post('/payment/PayRefund/approve', body) : await api.post('/payment/PayRefund/reject', body);
  return refundSchema.parse(answer);
}

export async function fetchAwaitingRefunds() {
  return z.array(refundSchema).parse(await api.get('/payment/PayRefund/awaitingList'));
}

/**
 * The preview of `amount` cents, or with null of all that may be refunded: that first answer is
 * also kept as the preview of its own amount, which the dialog then types in by default. The last
 * preview stays while the next loads (its `amount` says which it is); one is reused for 30 s.
 */
export function useRefundPreview(orderId: number, amount: number | null, enabled = true) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: orderKeys.refundPreview(orderId, amount),
    queryFn: async () => {
      const quote = await previewRefund(orderId, amount);
      if (amount === null) queryClient.setQueryData(orderKeys.refundPreview(orderId, quote.amount), quote);
      return quote;
    },
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

const useRefetchingMutation = <A, R>(mutationFn: (args: A) => Promise<R>) => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: orderKeys.all }) });
};

export function useRefundOrder() {
  return useRefetchingMutation(({ orderId, amount, reason }: { orderId: number; amount: number; reason: string }) =>
    refundOrder(orderId, amount, reason));
}

export function useDecideRefund() {
  return useRefetchingMutation(({ refundId, approve, note }: { refundId: number; approve: boolean; note: string }) =>
    decideRefund(refundId, approve, note));
}

/** Refunds awaiting a second operator, oldest first; asked only of those who may decide them. */
export function useAwaitingRefunds(enabled: boolean) {
  return useQuery({ queryKey: orderKeys.awaitingRefunds, queryFn: fetchAwaitingRefunds, enabled });
}
