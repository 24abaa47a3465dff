/**
 * Choosing devices for a batch recharge (spec: "Batch recharge: chosen devices must share the same
 * type (other types' checkboxes disabled)"), and the recharge page's `?deviceIds=` address.
 * Generic over the row type, so any table of devices with a `typeId` can use it: the recharge page
 * and the expired-service dialog (dialogs/expiredRows.ts).
 */

/** The most devices one order takes (the server's MAX_DEVICES_PER_ORDER). */
export const MAX_BATCH_DEVICES = 200;

/** What a chosen row must say: its type. */
export interface Typed {
  typeId: number;
}

/** The chosen devices by id; all of one type. */
export type BatchSelection<T extends Typed> = ReadonlyMap<number, T>;

export function emptySelection<T extends Typed>(): BatchSelection<T> {
  return new Map<number, T>();
}

/** The type of the chosen devices; null while none is chosen. */
export function selectedTypeId<T extends Typed>(selection: BatchSelection<T>): number | null {
  const first = selection.values().next();
  return first.done ? null : first.value.typeId;
}

/**
 * A device may be chosen while nothing is, or while the chosen ones are of its type and fewer
 * than `limit`; a chosen device may always be un-chosen.
 */
export function canSelect<T extends Typed>(
  selection: BatchSelection<T>,
  id: number,
  device: T,
  limit = MAX_BATCH_DEVICES,
): boolean {
  if (selection.has(id)) return true;
  const typeId = selectedTypeId(selection);
  return (typeId === null || typeId === device.typeId) && selection.size < limit;
}

/** Chooses the device, or un-chooses it when it is chosen; a device that may not be chosen changes nothing. */
export function toggleSelection<T extends Typed>(
  selection: BatchSelection<T>,
  id: number,
  device: T,
  limit = MAX_BATCH_DEVICES,
): BatchSelection<T> {
  if (!selection.has(id) && !canSelect(selection, id, device, limit)) return selection;
  const next = new Map(selection);
  if (next.has(id)) next.delete(id);
  else next.set(id, device);
  return next;
}

/**
 * The devices of `?deviceIds=1,2`: positive integers, each once, at most 200. Anything else
 * (nothing, an empty item, a letter, zero, too many) is null: the address is ignored.
 */
export function parseDeviceIds(value: string | null | undefined, limit = MAX_BATCH_DEVICES): number[] | null {
  if (!value) return null;
  const parts = value.split(',').map((part) => part.trim());
  if (parts.length > limit || parts.some((part) => !/^[1-9]\d{0,15}$/.test(part))) return null;
  const ids = [...new Set(parts.map(Number))];
  return ids.every((id) => Number.isSafeInteger(id)) ? ids : null;
}
