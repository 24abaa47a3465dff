/**
 * The push settings form of a device, mirroring the server's rules (core/alarms/push.py): which
 * alarm kinds go by SMS, voice and e-mail; quiet hours as two HH:MM times, both or neither, not
 * equal (an end before the start runs over midnight), in a time zone. Messages are keys of the
 * `devices` namespace.
 */
import { z } from 'zod';
import { ALARM_KINDS, type PushSetting, type PushSettingUpdate } from './api/alarmRules';
import type { T } from './schemas';

export const CHANNELS = ['sms', 'voice', 'email'] as const;
export type PushChannel = (typeof CHANNELS)[number];
const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
export const TIME_ZONE_MAX = 64;

const kindsForm = z.object({ above: z.boolean(), below: z.boolean() });
/** The form's name of each alarm kind (1 above the upper limit, 2 below the lower). */
export const KIND_FIELDS = { 1: 'above', 2: 'below' } as const;

export const pushFormSchema = (t: T) =>
  z
    .object({
      sms: kindsForm,
      voice: kindsForm,
      email: kindsForm,
      quietStart: z.string(),
      quietEnd: z.string(),
      timeZone: z.string(),
    })
    .superRefine((form, ctx) => {
      const problem = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
      for (const field of ['quietStart', 'quietEnd'] as const) {
        if (form[field] !== '' && !HH_MM.test(form[field])) problem(field, t('pushRule.time'));
      }
      if ((form.quietStart === '') !== (form.quietEnd === '')) {
        problem(form.quietEnd === '' ? 'quietEnd' : 'quietStart', t('pushRule.bothOrNeither'));
      } else if (form.quietStart !== '' && form.quietStart === form.quietEnd) {
        problem('quietEnd', t('pushRule.sameTimes'));
      }
      const zone = form.timeZone.trim();
      if (zone === '' || zone.length > TIME_ZONE_MAX) problem('timeZone', t('pushRule.timeZone'));
    });

export type PushForm = z.input<ReturnType<typeof pushFormSchema>>;

/** The browser's time zone: what quiet hours of a device without settings are read in. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

const kindsOf = (kinds: number[]) => ({ above: kinds.includes(1), below: kinds.includes(2) });

export function pushFormValues(setting: PushSetting): PushForm {
  return {
    sms: kindsOf(setting.smsKinds),
    voice: kindsOf(setting.voiceKinds),
    email: kindsOf(setting.emailKinds),
    quietStart: setting.quietStart ?? '',
    quietEnd: setting.quietEnd ?? '',
    // Defaults say UTC; the user's own zone is the likelier meaning of "22:00".
    timeZone: setting.stored ? setting.timeZone : browserTimeZone(),
  };
}

export function pushUpdate(deviceId: number, form: PushForm): PushSettingUpdate {
  const kinds = (channel: PushChannel) => ALARM_KINDS.filter((kind) => form[channel][KIND_FIELDS[kind]]);
  return {
    deviceId,
    smsKinds: kinds('sms'),
    voiceKinds: kinds('voice'),
    emailKinds: kinds('email'),
    quietStart: form.quietStart || null,
    quietEnd: form.quietEnd || null,
    timeZone: form.timeZone.trim(),
  };
}
