/**
 * A device's calibration on its detail (issue 21): GET /calibration/Device/calibration (for whoever
 * sees the device) gives the date of its newest calibration, the due date and the certificate an
 * issued calibration certificate set; POST /calibration/Device/interval sets its own interval
 * (null: its type's again), for who may change the device (`changeable`).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/http/index';

/** Months, as the server bounds them (src/core/calibration/due_dates.py). */
export const INTERVAL_MONTHS = { min: 1, max: 120 } as const;
/** "Calibration due" reaches this far ahead, as the device list's filter does (src/core/devices/model.py). */
export const DUE_WITHIN_DAYS = 30;

export const deviceCalibrationSchema = z.object({
  deviceId: z.number(),
  /** YYYY-MM-DD; null: never calibrated through the console. */
  calibratedOn: z.string().nullable(),
  dueOn: z.string().nullable(),
  certificate: z.string().nullable(),
  /** In force: the device's own, else its type's, else 12. */
  intervalMonths: z.number(),
  ownIntervalMonths: z.number().nullable(),
  changeable: z.boolean(),
});
export type DeviceCalibration = z.infer<typeof deviceCalibrationSchema>;

const key = (deviceId: number) => ['devices', 'calibration', deviceId] as const;

export async function fetchDeviceCalibration(deviceId: number): Promise<DeviceCalibration> {
  return deviceCalibrationSchema.parse(await api.get('/calibration/Device/calibration', { params: { deviceId }, silent: true }));
}

export async function saveCalibrationInterval(deviceId: number, intervalMonths: number | null): Promise<DeviceCalibration> {
  return deviceCalibrationSchema.parse(await api.post('/calibration/Device/interval', { deviceId, intervalMonths }));
}

export function useDeviceCalibration(deviceId: number) {
  return useQuery({ queryKey: key(deviceId), queryFn: () => fetchDeviceCalibration(deviceId) });
}

export function useSaveCalibrationInterval(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (months: number | null) => saveCalibrationInterval(deviceId, months),
    onSuccess: (saved) => queryClient.setQueryData(key(deviceId), saved),
  });
}

/** Where a due date stands on `today` (YYYY-MM-DD, the caller's day): past, within the filter's reach, or later. */
export function dueState(dueOn: string | null, today: string): 'overdue' | 'soon' | 'later' | null {
  if (dueOn === null) return null;
  if (dueOn < today) return 'overdue';
  const reach = new Date(`${today}T00:00:00Z`);
  reach.setUTCDate(reach.getUTCDate() + DUE_WITHIN_DAYS);
  return dueOn <= reach.toISOString().slice(0, 10) ? 'soon' : 'later';
}
