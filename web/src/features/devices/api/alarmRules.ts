/**
 * The alarm rules of one device (api-contract, DeviceAlarmRule): POST /device/DeviceAlarmRule/page
 * filtered by the device, POST .../insert for a probe without a rule, PUT .../update for one with,
 * DELETE .../delete to remove it.
 * Limits are always Celsius (temperature) or % RH (humidity); the form converts from the device's unit.
 * Reading needs device.detail; writing needs device.list:edit and write access to the device
 * (the server answers 403 otherwise, and a 403 ends the session, so the tab never sends one then).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { pageOf } from '@/lib/api/page';
import type { Signature } from '@/lib/api/fda';
import { api } from '@/lib/http/index';
import { deviceKeys } from '@/lib/api/devices';

export const recipientSchema = z.object({
  level: z.number().int(),
  name: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  /** Also call the phone. */
  voice: z.boolean(),
  /** Of this person's alerts; null: the device owner's. */
  language: z.string().nullable(),
});
export type AlarmRecipient = z.infer<typeof recipientSchema>;

export const alarmRuleSchema = z.object({
  id: z.number(),
  deviceId: z.number(),
  deviceName: z.string(),
  deviceGuid: z.string(),
  /** t temperature, h humidity. */
  probe: z.string(),
  name: z.string(),
  upperLimit: z.number().nullable(),
  lowerLimit: z.number().nullable(),
  delaySeconds: z.number(),
  level1Minutes: z.number(),
  level2Minutes: z.number().nullable(),
  level3Minutes: z.number().nullable(),
  enabled: z.boolean(),
  recipients: z.array(recipientSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AlarmRule = z.infer<typeof alarmRuleSchema>;

export const alarmRulePageSchema = pageOf(alarmRuleSchema);

/** The settings a rule is saved with (insert adds deviceId and probe, update the id). */
export interface AlarmRuleSettings {
  name: string;
  upperLimit: number | null;
  lowerLimit: number | null;
  delaySeconds?: number;
  level1Minutes: number;
  level2Minutes: number | null;
  level3Minutes: number | null;
  enabled: boolean;
  recipients: AlarmRecipient[];
}
export type AlarmRuleInsert = AlarmRuleSettings & { deviceId: number; probe: string };
export type AlarmRuleUpdate = AlarmRuleSettings & { id: number };

/** A device has a rule per probe, two at most: one page holds them all. */
const RULES_PAGE_SIZE = 10;

export async function fetchDeviceRules(deviceId: number): Promise<AlarmRule[]> {
  const page = alarmRulePageSchema.parse(
    await api.post('/device/DeviceAlarmRule/page', { deviceId, start: 1, pageSize: RULES_PAGE_SIZE }),
  );
  return page.data;
}

/** Where FDA mode is on for the device a change of its limits is signed (else 428); a signed call's 403 is the signature's refusal. */
type Signed = { signature?: Signature };
const signedOptions = (body: Signed) => ({ silent: true, denialIsAnswer: body.signature !== undefined });

/** Refusals are left to the form (silent), which shows them under their fields. */
export async function insertRule(body: AlarmRuleInsert & Signed): Promise<AlarmRule> {
  return alarmRuleSchema.parse(await api.post('/device/DeviceAlarmRule/insert', body, signedOptions(body)));
}

export async function updateRule(body: AlarmRuleUpdate & Signed): Promise<AlarmRule> {
  return alarmRuleSchema.parse(await api.put('/device/DeviceAlarmRule/update', body, signedOptions(body)));
}

/** A rule goes; its alarm messages stay in the message centre, ended. Refusals are the caller's to show. */
export async function deleteRule({ id, signature }: { id: number } & Signed): Promise<void> {
  await api.delete('/device/DeviceAlarmRule/delete', { params: { id }, ...(signature ? { body: { signature } } : {}),
    ...signedOptions({ signature }) });
}

export const ruleKeys = {
  device: (deviceId: number) => ['devices', 'alarmRules', deviceId] as const,
};

export function useDeviceRules(deviceId: number) {
  return useQuery({ queryKey: ruleKeys.device(deviceId), queryFn: () => fetchDeviceRules(deviceId) });
}

/** Saves a probe's rule (insert or update); the device is asked again for the limits in force. */
export function useSaveRule(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: (AlarmRuleInsert | AlarmRuleUpdate) & Signed) => ('id' in body ? updateRule(body) : insertRule(body)),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ruleKeys.device(deviceId) }),
        queryClient.invalidateQueries({ queryKey: deviceKeys.detail(deviceId) }),
      ]);
    },
  });
}

/** Deletes a probe's rule; the device is asked again for the limits in force. */
export function useDeleteRule(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRule,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ruleKeys.device(deviceId) }),
        queryClient.invalidateQueries({ queryKey: deviceKeys.detail(deviceId) }),
      ]);
    },
  });
}

/** Alarm kinds: 1 above the upper limit, 2 below the lower. */
export const ALARM_KINDS = [1, 2] as const;

export const pushSettingSchema = z.object({
  deviceId: z.number(),
  smsKinds: z.array(z.number()),
  voiceKinds: z.array(z.number()),
  emailKinds: z.array(z.number()),
  /** Local HH:MM in timeZone; both null: no quiet hours. */
  quietStart: z.string().nullable(),
  quietEnd: z.string().nullable(),
  timeZone: z.string(),
  /** false: the device has none of its own, these are the defaults. */
  stored: z.boolean(),
  access: z.number(),
});
export type PushSetting = z.infer<typeof pushSettingSchema>;
export type PushSettingUpdate = Omit<PushSetting, 'stored' | 'access'>;

export async function fetchPushSetting(deviceId: number): Promise<PushSetting> {
  return pushSettingSchema.parse(await api.get('/device/DeviceAlarmPushSetting/get', { params: { deviceId } }));
}

export async function updatePushSetting(body: PushSettingUpdate): Promise<PushSetting> {
  return pushSettingSchema.parse(await api.put('/device/DeviceAlarmPushSetting/update', body, { silent: true }));
}

export const pushKeys = {
  device: (deviceId: number) => ['devices', 'alarmPush', deviceId] as const,
};

export function usePushSetting(deviceId: number) {
  return useQuery({ queryKey: pushKeys.device(deviceId), queryFn: () => fetchPushSetting(deviceId) });
}

export function useSavePushSetting(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePushSetting,
    onSuccess: (saved) => queryClient.setQueryData(pushKeys.device(deviceId), saved),
  });
}
