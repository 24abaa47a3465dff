/** The home page's device counts (GET /device/Device/homeCounts) and where each tile leads. */
import type { IconName } from '@/lib/icons';
import type { HomeCount } from '@/features/home/api/homeCounts';
import { listHref, SCENE_TABS } from '@/lib/deviceListQuery';

export interface DeviceTile {
  count: HomeCount;
  icon: IconName;
  tone: 'primary' | 'success' | 'muted' | 'danger' | 'warning';
  /** The device list filtered to these devices, or null when the list has no such filter. */
  href: string | null;
}

const LIST = SCENE_TABS[0]?.path ?? '/device/list';

export const DEVICE_TILES: readonly DeviceTile[] = [
  { count: 'total', icon: 'layers', tone: 'primary', href: listHref(LIST) },
  { count: 'online', icon: 'feed', tone: 'success', href: listHref(LIST, { status: 'online' }) },
  // The list's "offline" also holds devices that never reported: it has no filter for either alone.
  { count: 'offline', icon: 'offline', tone: 'muted', href: listHref(LIST, { status: 'offline' }) },
  { count: 'alarm', icon: 'warning-sign', tone: 'danger', href: listHref(LIST, { status: 'alarm' }) },
  { count: 'disabled', icon: 'ban-circle', tone: 'muted', href: listHref(LIST, { status: 'disabled' }) },
  { count: 'expired', icon: 'time', tone: 'danger', href: listHref(LIST, { service: 'expired' }) },
  { count: 'notEnabled', icon: 'disable', tone: 'warning', href: null },
  { count: 'scrapped', icon: 'archive', tone: 'muted', href: listHref(LIST, { status: 'scrapped' }) },
];
