import type { Device } from '@/lib/api/devices';
import { markerTone } from '@/lib/deviceValues';
import type { MapMarker } from './DeviceMap';

/** The devices that reported a position, as markers coloured by their state. */
export function devicesOnMap(devices: readonly Device[]): MapMarker[] {
  return devices.flatMap((device) =>
    device.position
      ? [{ id: device.deviceId, lat: device.position.lat, lon: device.position.lon, label: device.deviceName, tone: markerTone(device) }]
      : [],
  );
}
