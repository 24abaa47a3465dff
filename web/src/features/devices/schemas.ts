/**
 * The device edit form's rules, mirroring the server's (core/devices/rules.py and the update
 * schema): name 1-50 characters once trimmed, remark up to 120, display precision 0-4, unit C or F,
 * country code 1-4 digits where the edition lets it change. Messages are keys of the `devices`
 * namespace, written with `t`, so they follow the chosen language.
 */
import { z } from 'zod';
import type { DeviceChange, DeviceDetail, TemperatureUnit } from '@/lib/api/devices';
import { NAME_MAX } from '@/lib/api/devices';
import { PRECISION_MAX } from '@/lib/units';

export type T = (key: string, options?: Record<string, unknown>) => string;

export const REMARK_MAX = 120;
const COUNTRY_CODE = /^\d{1,4}$/;

/** Characters as the server counts them (code points, not UTF-16 units). */
const lengthOf = (value: string): number => [...value].length;

export const PRECISIONS = Array.from({ length: PRECISION_MAX + 1 }, (_, i) => String(i));

export const deviceEditSchema = (t: T, countryCodeEditable: boolean) =>
  z.object({
    deviceName: z
      .string()
      .trim()
      .refine((value) => value.length > 0, t('rule.nameRequired'))
      .refine((value) => lengthOf(value) <= NAME_MAX, t('rule.nameTooLong', { max: NAME_MAX })),
    remark: z.string().refine((value) => lengthOf(value) <= REMARK_MAX, t('rule.remarkTooLong', { max: REMARK_MAX })),
    displayPrecision: z.enum(PRECISIONS as [string, ...string[]], { message: t('rule.precision') }),
    temperatureUnit: z.enum(['C', 'F'], { message: t('rule.unit') }),
    countryCode: countryCodeEditable
      ? z.string().trim().regex(COUNTRY_CODE, t('rule.countryCode'))
      : z.string(),
  });

export type DeviceEditForm = z.input<ReturnType<typeof deviceEditSchema>>;
export type DeviceEditValues = z.output<ReturnType<typeof deviceEditSchema>>;

/** The form's starting values: the device as it is. */
export function editValues(device: DeviceDetail): DeviceEditForm {
  return {
    deviceName: device.deviceName,
    remark: device.remark ?? '',
    displayPrecision: String(device.displayPrecision),
    temperatureUnit: device.temperatureUnit,
    countryCode: device.countryCode ?? '',
  };
}

/** The body of PUT /device/Device/update; the country code only where the edition lets it change. */
export function changeOf(deviceId: number, values: DeviceEditValues, countryCodeEditable: boolean): DeviceChange {
  return {
    deviceId,
    deviceName: values.deviceName,
    remark: values.remark,
    displayPrecision: Number(values.displayPrecision),
    temperatureUnit: values.temperatureUnit as TemperatureUnit,
    ...(countryCodeEditable ? { countryCode: values.countryCode } : {}),
  };
}
