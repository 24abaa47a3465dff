/** Test helpers of the device screens: devices like the demo's and the permissions they may use. */
import { signIn } from '@/test/harness';
import type { Device, DeviceDetail, DevicePage } from '@/lib/api/devices';
import { everyElement } from '@/lib/access';

/** Everything the device screens may use. */
export const ALL_DEVICE_PERMISSIONS = [
  'home',
  'device.list',
  'device.list:edit',
  'device.detail',
  'message.list',
  'message.list:query',
  'consumer.recharge',
];

export function signInWith(permissions: string[] = ALL_DEVICE_PERMISSIONS): void {
  signIn(undefined, permissions);
}

/** A device like the demo's "Cold room A logger": online, 3.8 °C and 75.3 %RH, basic service until 2027. */
export function device(overrides: Partial<Device> = {}): Device {
  return {
    deviceId: 1,
    deviceName: 'Cold room A logger',
    deviceGuid: 'RCW360A0000001',
    typeId: 1,
    deviceTypeName: 'RCW-360 Wi-Fi Logger',
    typeScenes: [1],
    levelId: 2,
    levelName: 'Basic',
    serviceExpiredDate: '2099-12-31',
    vipInfo: { state: 0 },
    smsCount: 120,
    voiceCount: 30,
    countryCode: '86',
    simIccid: null,
    jcIccidStatus: 0,
    agreementStatus: 0,
    nodeType: 1,
    status: 1,
    remark: null,
    ownerId: 7,
    ownerName: 'alice',
    isOwner: true,
    access: 2,
    organizationId: null,
    organizationName: null,
    online: 1,
    alarmState: 0,
    lastReadingAt: '2026-11-22T11:20:00+08:00',
    temperature: 3.8,
    humidity: 75.3,
    displayPrecision: 1,
    temperatureUnit: 'C',
    activatedAt: '2026-11-15T11:20:00+08:00',
    createdAt: '2026-11-15T10:00:00+08:00',
    position: null,
    energy: false,
    scrappedAt: null,
    projectId: null,
    projectName: null,
    // An owner operates every element, a reader (access 1, a member of its organization) sees them all.
    permissions: everyElement((overrides.access ?? 2) >= 2),
    sharedWithMe: false,
    ...overrides,
  };
}

export function detail(overrides: Partial<DeviceDetail> = {}): DeviceDetail {
  const base = device(overrides);
  return {
    ...base,
    lastSeenAt: '2026-11-22T13:22:00+08:00',
    lastReading: { ts: base.lastReadingAt ?? '', temperature: base.temperature, humidity: base.humidity },
    probes: [
      { probe: 't', upperLimit: 8, lowerLimit: 2, ruleEnabled: true },
      { probe: 'h', upperLimit: null, lowerLimit: null, ruleEnabled: false },
    ],
    ...overrides,
  };
}

export function page(devices: Device[], totalCount = devices.length, start = 1, pageSize = 10): DevicePage {
  return { start, pageSize, totalCount, data: devices };
}
