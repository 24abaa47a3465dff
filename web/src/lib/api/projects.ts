/**
 * Projects (/project/list): named groups of devices, the caller's own or an organization's. POST /device/Project/page to
 * list and search them, GET .../get for one, POST .../insert and PUT .../update to save one,
 * DELETE .../delete?id= (its devices stay, in no project), and POST /device/Device/changeProject
 * to move devices into one (or out of any, projectId null). A device's project is on its row of
 * the device list (projectId, projectName), which takes a projectId filter.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { pageOf } from './page';
import { deviceKeys } from './devices';
import { api } from '@/lib/http/index';

/** The server's bounds (src/core/projects/model.py). */
export const PROJECT_LIMITS = { nameMin: 2, name: 20, remark: 200, move: 200 } as const;
/** The device list's projectId filter for the devices in no project. */
export const NO_PROJECT = 0;

export const projectSchema = z.object({
  id: z.number(),
  projectName: z.string(),
  remark: z.string().nullable(),
  createdAt: z.string(),
  /** Its devices the caller sees, and of those the online and alarming ones. */
  deviceCount: z.number(),
  onlineCount: z.number(),
  alarmCount: z.number(),
  /** The organization it belongs to (its members read it); null: the caller's own. */
  organizationId: z.number().nullable(),
  organizationName: z.string().nullable(),
  /** The caller may rename and delete it and move devices into it. */
  changeable: z.boolean(),
});
export type Project = z.infer<typeof projectSchema>;
export const projectPageSchema = pageOf(projectSchema);
export const projectDeletedSchema = z.object({ released: z.number() });
export const projectChangedSchema = z.object({ moved: z.number() });

export interface ProjectFields {
  projectName: string;
  remark: string | null;
  /** Whose a new project is: one of the caller's organizations, or null for the caller's own (not changed later). */
  organizationId?: number | null;
}

export const projectKeys = {
  all: ['projects'] as const,
  page: (projectName: string, start: number, pageSize: number) => ['projects', 'page', projectName, start, pageSize] as const,
  one: (id: number) => ['projects', 'one', id] as const,
};

export async function fetchProjects(projectName: string, start: number, pageSize: number) {
  return projectPageSchema.parse(await api.post('/device/Project/page', {
    start, pageSize, ...(projectName ? { projectName } : {}),
  }));
}

export async function fetchProject(id: number): Promise<Project> {
  return projectSchema.parse(await api.get('/device/Project/get', { params: { id }, silent: true }));
}

/** Refusals (a name taken) are left to the form: silent. */
export async function saveProject(fields: ProjectFields, id?: number): Promise<Project> {
  return projectSchema.parse(id === undefined
    ? await api.post('/device/Project/insert', fields, { silent: true })
    : await api.put('/device/Project/update', { projectName: fields.projectName, remark: fields.remark, id }, { silent: true }));
}

export async function deleteProject(id: number) {
  return projectDeletedSchema.parse(await api.delete('/device/Project/delete', { params: { id } }));
}

export async function changeProject(deviceIds: readonly number[], projectId: number | null) {
  return projectChangedSchema.parse(await api.post('/device/Device/changeProject', { deviceIds, projectId }));
}

export function useProjects(projectName: string, start: number, pageSize: number, enabled = true) {
  return useQuery({
    queryKey: projectKeys.page(projectName, start, pageSize),
    queryFn: () => fetchProjects(projectName, start, pageSize),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useProject(id: number | null) {
  return useQuery({ queryKey: projectKeys.one(id ?? 0), queryFn: () => fetchProject(id ?? 0), enabled: id !== null });
}

/** After any change: the projects' counts and the device list's project column are stale. */
function useInvalidate() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: projectKeys.all }),
    queryClient.invalidateQueries({ queryKey: deviceKeys.all })]);
}

export function useSaveProject() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ fields, id }: { fields: ProjectFields; id?: number }) => saveProject(fields, id),
    onSettled: invalidate,
  });
}

export function useDeleteProject() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: deleteProject, onSettled: invalidate });
}

export function useChangeProject() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ deviceIds, projectId }: { deviceIds: readonly number[]; projectId: number | null }) =>
      changeProject(deviceIds, projectId),
    onSettled: invalidate,
  });
}
