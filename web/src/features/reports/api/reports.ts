/**
 * Scheduled reports (/service/scheduledBackup): POST /device/ScheduledReport/page to list the
 * caller's schedules, .../insert and .../update to save one, DELETE .../delete?id=, and POST
 * .../runs for a schedule's runs. A job on the server mails each due period's files.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { EXPORT_FORMATS } from '@/lib/api/exports';
import { pageOf } from '@/lib/api/page';
import { api } from '@/lib/http/index';

export const FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
export const OUTCOMES = ['running', 'ok', 'partial', 'failed'] as const;
/** The server's bounds (src/core/reports/model.py). */
export const REPORT_LIMITS = { name: 20, devices: 50, recipients: 10, email: 100, monthDay: 28 } as const;

export const scheduleSchema = z.object({
  id: z.number(),
  name: z.string(),
  frequency: z.enum(FREQUENCIES),
  /** Weekly: 0 Monday ... 6 Sunday. */
  weekday: z.number().nullable(),
  /** Monthly: 1-28. */
  monthDay: z.number().nullable(),
  deviceIds: z.array(z.number()),
  /** deviceIds with their names, those the caller still sees. */
  devices: z.array(z.object({ deviceId: z.number(), deviceName: z.string() })),
  format: z.enum(EXPORT_FORMATS),
  recipients: z.array(z.string()),
  enabled: z.boolean(),
  createdAt: z.string(),
});
export type ScheduleRecord = z.infer<typeof scheduleSchema>;
export const schedulePageSchema = pageOf(scheduleSchema);

export const runSchema = z.object({
  id: z.number(),
  periodStart: z.string(),
  periodEnd: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  outcome: z.enum(OUTCOMES),
  files: z.array(z.object({
    deviceId: z.number(),
    deviceName: z.string(),
    exportId: z.string().nullable(),
    fileName: z.string().nullable(),
    size: z.number().nullable(),
    error: z.string().nullable(),
  })),
  sentTo: z.array(z.string()),
  attempts: z.number(),
  error: z.string().nullable(),
});
export type RunRecord = z.infer<typeof runSchema>;
export const runPageSchema = pageOf(runSchema);

export type ScheduleFields = Omit<ScheduleRecord, 'id' | 'createdAt' | 'devices'>;

const keys = {
  all: ['reports'] as const,
  page: (start: number, pageSize: number) => ['reports', 'page', start, pageSize] as const,
  runs: (id: number) => ['reports', 'runs', id] as const,
};

export async function fetchSchedules(start: number, pageSize: number) {
  return schedulePageSchema.parse(await api.post('/device/ScheduledReport/page', { start, pageSize }));
}

export async function saveSchedule(fields: ScheduleFields, id?: number): Promise<ScheduleRecord> {
  return scheduleSchema.parse(id === undefined
    ? await api.post('/device/ScheduledReport/insert', fields)
    : await api.post('/device/ScheduledReport/update', { ...fields, id }));
}

export async function deleteSchedule(id: number): Promise<void> {
  await api.delete('/device/ScheduledReport/delete', { params: { id } });
}

export async function fetchRuns(scheduleId: number) {
  return runPageSchema.parse(await api.post('/device/ScheduledReport/runs', { scheduleId, start: 1, pageSize: 20 }));
}

export function useSchedules(start: number, pageSize: number) {
  return useQuery({ queryKey: keys.page(start, pageSize), queryFn: () => fetchSchedules(start, pageSize),
    placeholderData: keepPreviousData });
}

export function useRuns(scheduleId: number | null) {
  return useQuery({ queryKey: keys.runs(scheduleId ?? 0), queryFn: () => fetchRuns(scheduleId ?? 0),
    enabled: scheduleId !== null });
}

export function useSaveSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ fields, id }: { fields: ScheduleFields; id?: number }) => saveSchedule(fields, id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}

export function useDeleteSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSchedule,
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}
