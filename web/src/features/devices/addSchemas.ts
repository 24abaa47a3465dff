/**
 * The add-device form's rules, mirroring the server's (core/devices/rules.py): GUID 8 to 32
 * letters and digits, name 1-50 characters once trimmed, remark up to 120, a type chosen.
 * Messages are keys of the `devices` namespace, written with `t`.
 */
import { z } from 'zod';
import { NAME_MAX } from '@/lib/api/devices';
import type { NewDevice } from './api/manage';
import { REMARK_MAX, type T } from './schemas';

export const GUID_MIN = 8;
export const GUID_MAX = 32;
const GUID = /^[A-Za-z0-9]+$/;
const lengthOf = (value: string): number => [...value].length;

export const deviceAddSchema = (t: T) =>
  z.object({
    deviceGuid: z
      .string()
      .trim()
      .refine((value) => value.length > 0, t('add.rule.guidRequired'))
      .refine((value) => value.length === 0 || (GUID.test(value) && value.length >= GUID_MIN && value.length <= GUID_MAX), t('add.rule.guid', { min: GUID_MIN, max: GUID_MAX })),
    deviceName: z
      .string()
      .trim()
      .refine((value) => value.length > 0, t('rule.nameRequired'))
      .refine((value) => lengthOf(value) <= NAME_MAX, t('rule.nameTooLong', { max: NAME_MAX })),
    typeId: z.string().refine((value) => /^\d+$/.test(value), t('add.rule.type')),
    remark: z.string().refine((value) => lengthOf(value) <= REMARK_MAX, t('rule.remarkTooLong', { max: REMARK_MAX })),
  });

export type DeviceAddForm = z.input<ReturnType<typeof deviceAddSchema>>;
export type DeviceAddValues = z.output<ReturnType<typeof deviceAddSchema>>;

export const EMPTY_ADD_FORM: DeviceAddForm = { deviceGuid: '', deviceName: '', typeId: '', remark: '' };

export function newDeviceOf(values: DeviceAddValues): NewDevice {
  const remark = values.remark.trim();
  return {
    deviceGuid: values.deviceGuid,
    deviceName: values.deviceName,
    typeId: Number(values.typeId),
    ...(remark ? { remark } : {}),
  };
}
