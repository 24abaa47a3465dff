/** The account's language and time zone: what the console starts in and what messages to the owner are written in. */
import { api } from '@/lib/http';

export interface Preferences {
  language?: string;
  timeZone?: string;
}

/** Saves them; `silent` leaves a failure to the caller (a form), else the console reports it. */
export async function savePreferences(body: Preferences, { silent = true } = {}): Promise<void> {
  await api.post('/base/BaseAccount/modifyPreferences', body, { silent });
}
