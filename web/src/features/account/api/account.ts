/**
 * The account page's calls: base info, preferences (language, time zone), the picture, phone,
 * e-mail and password changes (confirmed by the current password) and which system messages also
 * go by e-mail or SMS. Every save is silent: the page shows failures on its forms.
 */
import { z } from 'zod';
import { api } from '@/lib/http';
import type { Channel } from '@/lib/api/sendCode';

export async function saveBaseInfo(body: { realName?: string; company?: string }): Promise<void> {
  await api.post('/base/BaseAccount/modifyBaseInfo', body, { silent: true });
}

export { savePreferences } from '@/lib/api/preferences';

export const photoSchema = z.object({ accountPhoto: z.string() });

/** Uploads a picture; the server checks it is a real JPG or PNG and keeps a re-encoded copy. */
export async function uploadPhoto(file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file, file.name);
  return photoSchema.parse(await api.post('/base/BaseAccount/uploadHeadPhoto', form, { silent: true })).accountPhoto;
}

export interface CredentialsChange {
  /** The current password, which every change needs. */
  accountPassword: string;
  newPassword?: string;
  confirmPassword?: string;
  /** The new phone number or e-mail address, with the code sent to it. */
  target?: string;
  code?: string;
}

/** Changes the password and/or the phone (e-mail): the new contact replaces the old only with its code. */
export async function changeCredentials(channel: Channel, change: CredentialsChange): Promise<void> {
  const { target, ...rest } = change;
  const path = channel === 'phone' ? 'modifyPhoneAndPassword' : 'modifyEmailAndPassword';
  await api.post(`/base/BaseAccount/${path}`, { ...rest, ...(target ? { [channel]: target } : {}) }, { silent: true });
}

export const MESSAGE_KINDS = ['expiry', 'payment', 'export', 'invitation', 'geofence'] as const;
export const channelChoiceSchema = z.object({
  kind: z.enum(MESSAGE_KINDS),
  email: z.boolean(),
  phone: z.boolean(),
});
export type ChannelChoice = z.infer<typeof channelChoiceSchema>;

export async function fetchChannels(): Promise<ChannelChoice[]> {
  return z.array(channelChoiceSchema).parse(await api.get('/base/BaseMessage/channels'));
}

export async function saveChannels(channels: ChannelChoice[]): Promise<ChannelChoice[]> {
  return z.array(channelChoiceSchema).parse(await api.post('/base/BaseMessage/channels', { channels }, { silent: true }));
}
