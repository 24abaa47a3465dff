import type { DeviceMarker } from '@/lib/api/devices';
import { markerTone } from '@/lib/deviceValues';
import type { MapMarker } from './DeviceMap';

/** The server's markers (POST /device/Device/markers) as the map draws them, coloured by state. */
export function devicesOnMap(devices: readonly DeviceMarker[]): MapMarker[] {
  return devices.map((device) => ({
    id: device.deviceId, lat: device.lat, lon: device.lon, label: device.deviceName, tone: markerTone(device),
  }));
}
