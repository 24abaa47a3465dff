import { z } from 'zod';
import { api } from '@/lib/http/index';

/** The permission names the account holds in a scene. */
export const scenePermissionsSchema = z.array(z.string());

export async function fetchScenePermissions(sceneId: number): Promise<string[]> {
  return scenePermissionsSchema.parse(await api.get('/base/BaseAccount/getScenePermissionList', { params: { sceneId } }));
}
