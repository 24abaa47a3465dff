/** The expired-service table's rules: type groups, the one-type selection and links (dates: lib/expiry). */
import { mayChange } from '@/lib/access';
import {
  canSelect as canChoose,
  emptySelection,
  selectedTypeId,
  toggleSelection,
  type BatchSelection,
} from '@/lib/batchSelection';
import type { ExpiredDevice } from '@/lib/api/expired';

/** A table row; `groupSize` is the number of rows its type cell spans (0 below the group's first row). */
export interface GroupedRow {
  device: ExpiredDevice;
  groupSize: number;
}

function sameGroup(a: ExpiredDevice, b: ExpiredDevice): boolean {
  return a.deviceTypeName === b.deviceTypeName && a.typeId === b.typeId;
}

/** Consecutive rows of one device type form a group (the server sorts by type name). */
export function groupByType(devices: readonly ExpiredDevice[]): GroupedRow[] {
  const rows: GroupedRow[] = [];
  let first: GroupedRow | null = null;
  for (const device of devices) {
    if (first && sameGroup(first.device, device)) {
      first.groupSize += 1;
      rows.push({ device, groupSize: 0 });
    } else {
      first = { device, groupSize: 1 };
      rows.push(first);
    }
  }
  return rows;
}

/** The chosen devices, by id; all of one type (the batch rule of recharge/batchSelection.ts). */
export type Selection = BatchSelection<ExpiredDevice>;
export const EMPTY_SELECTION: Selection = emptySelection();
export { selectedTypeId };

/**
 * A device may be chosen while nothing is, or while the chosen ones are of its type; never one the
 * caller may only read (the server refuses its orders with 403).
 */
export function canSelect(selection: Selection, device: ExpiredDevice): boolean {
  return mayChange(device) && canChoose(selection, device.id, device);
}

/** Chooses the device, or un-chooses it when it is chosen; one that may not be chosen changes nothing. */
export function toggleDevice(selection: Selection, device: ExpiredDevice): Selection {
  if (!selection.has(device.id) && !canSelect(selection, device)) return selection;
  return toggleSelection(selection, device.id, device);
}

export function deviceListPath(deviceName: string): string {
  return `/device/list?${new URLSearchParams({ deviceName }).toString()}`;
}
