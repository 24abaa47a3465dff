/**
 * The caller's access to a device, as the server says with every device, expired-service row and
 * alarm message (`access`): 1 read only (a member of the organization that owns the device), 2 read
 * and change (its owner, the organization's creator or an administrator). The server refuses every
 * change of a read-only device with 403, and a 403 logs the console out (spec seed 000 section 8),
 * so a screen offers a change only where `mayChange` holds, whatever the account's permissions.
 */
import { z } from 'zod';

/** The access that allows changes; 1 is read only. */
export const READ_WRITE = 2;

/** The `access` field of a device, an expired-service row or an alarm message. */
export const accessSchema = z.number().int();

/** Whether the caller may change the device (edit it, recharge it, handle its alarms, ...). */
export function mayChange(item: { access: number }): boolean {
  return item.access >= READ_WRITE;
}
