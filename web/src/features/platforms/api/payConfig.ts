/**
 * White-label platforms and the payment configuration of their camps (/customized/list, spec
 * section 3 "Pay configuration"): PayPdConfig overview (the camps with their platforms and which
 * provider each configures itself), selectByCamp (one camp's provider: its fields, secrets only
 * as "set, ending in"), update and delete (the camp then uses the console's configuration).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/http/index';

/** The button permission of seeing and changing a camp's configuration. */
export const PAY_CONFIG_PERMISSION = 'customized.list:payConfig';
/** Camp 0 is the console itself: its configuration is the server's environment. */
export const CONSOLE_CAMP = 0;

export const overviewSchema = z.object({
  /** The edition's providers, in the order shown. */
  providers: z.array(z.string()),
  camps: z.array(z.object({
    camp: z.number(),
    platforms: z.array(z.object({ topDomain: z.string(), title: z.string() })),
    /** By provider: the camp has its own configuration (else it uses the console's). */
    own: z.record(z.string(), z.boolean()),
  })),
});
export type Overview = z.infer<typeof overviewSchema>;
export type CampOverview = Overview['camps'][number];

/**
 * A field of a provider's configuration. A plain field carries its `value` ("" when empty); a
 * secret never does: only whether it is `set` and its `last4` (null when not set).
 */
export const configFieldSchema = z.object({
  name: z.string(),
  secret: z.boolean(),
  required: z.boolean(),
  multiline: z.boolean(),
  value: z.string().optional(),
  set: z.boolean().optional(),
  last4: z.string().nullable().optional(),
});
export type ConfigField = z.infer<typeof configFieldSchema>;

export const payConfigSchema = z.object({
  camp: z.number(),
  provider: z.string(),
  own: z.boolean(),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
  /** Where the provider sends its payment notifications: registered at the provider by hand. */
  notifyUrl: z.string(),
  fields: z.array(configFieldSchema),
});
export type PayConfig = z.infer<typeof payConfigSchema>;

export interface ConfigKey {
  camp: number;
  provider: string;
}

export const platformKeys = {
  all: ['platforms'] as const,
  overview: ['platforms', 'overview'] as const,
  config: ({ camp, provider }: ConfigKey) => ['platforms', 'config', camp, provider] as const,
};

export async function fetchOverview() {
  return overviewSchema.parse(await api.get('/payment/PayPdConfig/overview'));
}

export async function fetchConfig({ camp, provider }: ConfigKey) {
  return payConfigSchema.parse(await api.get('/payment/PayPdConfig/selectByCamp', { params: { camp, provider } }));
}

/** Field refusals (422 on `values.<name>`) are shown by the form: silent. */
export async function updateConfig({ camp, provider, values }: ConfigKey & { values: Record<string, string> }) {
  return payConfigSchema.parse(await api.put('/payment/PayPdConfig/update', { camp, provider, values }, { silent: true }));
}

export async function deleteConfig({ camp, provider }: ConfigKey) {
  return payConfigSchema.parse(await api.delete('/payment/PayPdConfig/delete', { params: { camp, provider } }));
}

export function useOverview() {
  return useQuery({ queryKey: platformKeys.overview, queryFn: fetchOverview });
}

export function useConfig(key: ConfigKey | null) {
  return useQuery({
    queryKey: platformKeys.config(key ?? { camp: -1, provider: '' }),
    queryFn: () => fetchConfig(key!),
    enabled: key !== null,
  });
}

/** The answer is the configuration as saved: kept as the camp's; the overview is read again. */
export function useUpdateConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateConfig,
    onSuccess: (config) => queryClient.setQueryData(platformKeys.config(config), config),
    onSettled: () => queryClient.invalidateQueries({ queryKey: platformKeys.overview }),
  });
}

/** The camp now uses the console's configuration (the answer: its fields, empty); the overview is read again. */
export function useDeleteConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteConfig,
    onSuccess: (config) => queryClient.setQueryData(platformKeys.config(config), config),
    onSettled: () => queryClient.invalidateQueries({ queryKey: platformKeys.overview }),
  });
}
