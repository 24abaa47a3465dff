/**
 * A device's auto-renew agreement (api-contract section 5): GET /payment/PayOrder/selectCurrentService
 * (the agreement, or null) and GET /payment/PayOrder/unAgreement (cancels it; 1110 when there is
 * none). While an agreement is active the server refuses an order for another level.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/http';

/** The server's refusal when a device has no automatic renewal to cancel. */
export const NO_ACTIVE_AGREEMENT = 1110;

export const currentServiceSchema = z.object({
  deviceId: z.number(),
  levelName: z.string(),
  /** Cents charged at each renewal. */
  totalFee: z.number(),
  /** ISO 4217 code of totalFee. */
  currency: z.string(),
  /** ISO 8601 with an offset: when the next renewal is charged. */
  nextExecutionTime: z.string(),
});
export type CurrentService = z.infer<typeof currentServiceSchema>;

export async function fetchCurrentService(deviceId: number): Promise<CurrentService | null> {
  return currentServiceSchema.nullable().parse(await api.get('/payment/PayOrder/selectCurrentService', { params: { deviceId } }));
}

/** Cancels the device's automatic renewal. Silent: the caller shows the failure. */
export async function cancelAgreement(deviceId: number): Promise<void> {
  await api.get('/payment/PayOrder/unAgreement', { params: { deviceId }, silent: true });
}

export const serviceKeys = {
  all: ['payment', 'currentService'] as const,
  current: (deviceId: number) => ['payment', 'currentService', deviceId] as const,
};

/** The device's agreement (null: none), asked while `enabled`; always fresh when a drawer opens. */
export function useCurrentService(deviceId: number, enabled = true) {
  return useQuery({
    queryKey: serviceKeys.current(deviceId),
    queryFn: () => fetchCurrentService(deviceId),
    enabled,
    staleTime: 0,
  });
}

/** Cancels auto-renew; the device's agreement is asked again afterwards. */
export function useCancelAgreement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelAgreement,
    onSettled: (_data, _error, deviceId) => queryClient.invalidateQueries({ queryKey: serviceKeys.current(deviceId) }),
  });
}
