/**
 * The caller's access to a device, as the server says with every device, expired-service row and
 * alarm message (`access`): 2 the owner's rights (its owner, the organization's creator or an
 * administrator: rename, delete, scrap, credentials, share, transfer, move to a project), 1 anything
 * less. A device also says, element by element (its detail's tabs), what the caller may see and
 * operate (`permissions`: a member of its organization sees all and operates nothing, a person it
 * was shared with holds what the share's template grants). The server refuses every change it does
 * not grant with 403, and a 403 logs the console out (spec seed 000 section 8), so a screen offers
 * an owner's action only where `mayChange` holds and a change inside a tab only where `mayOperate`
 * holds, whatever the account's permissions.
 */
import { z } from 'zod';

/** The access that holds the owner's rights; 1 is anything less. */
export const READ_WRITE = 2;

/** The `access` field of a device, an expired-service row or an alarm message. */
export const accessSchema = z.number().int();

/** The elements of a device, in the order of its detail's tabs (spec seed 001 section 2). */
export const ELEMENT_CODES = [
  'realtime', 'chart', 'alarms', 'push', 'map', 'info', 'params', 'recharge', 'energy', 'log', 'maintenance',
] as const;
export type ElementCode = (typeof ELEMENT_CODES)[number];

/** What the caller may do with one element: see it (viewStatus 1) and operate it (setStatus 1). */
export const elementPermissionSchema = z.object({
  code: z.string(),
  viewStatus: z.number().int(),
  setStatus: z.number().int(),
});
export type ElementPermission = z.infer<typeof elementPermissionSchema>;

/** Whether the caller holds the device's owner-level rights (rename, delete, share, transfer, ...). */
export function mayChange(item: { access: number }): boolean {
  return item.access >= READ_WRITE;
}

interface Granted {
  permissions: readonly ElementPermission[];
}

const entryOf = (device: Granted, code: ElementCode) => device.permissions.find((entry) => entry.code === code);

/** Whether the caller may see the element (its tab shows); an element the server does not name is not seen. */
export function mayView(device: Granted, code: ElementCode): boolean {
  return entryOf(device, code)?.viewStatus === 1;
}

/** Whether the caller may change something inside the element (send parameters, edit a rule, ...). */
export function mayOperate(device: Granted, code: ElementCode): boolean {
  const entry = entryOf(device, code);
  return entry?.viewStatus === 1 && entry.setStatus === 1;
}

/** Every element seen, and operated when `operate`: what an owner holds, or a reader with `operate` false. */
export function everyElement(operate: boolean): ElementPermission[] {
  return ELEMENT_CODES.map((code) => ({ code, viewStatus: 1, setStatus: operate ? 1 : 0 }));
}
