import { z } from 'zod';
import { api } from '@/lib/http/index';

export async function fetchScenePermissions(sceneId: number): Promise<string[]> {
  return z.array(z.string()).parse(await api.get('/base/BaseAccount/getScenePermissionList', { params: { sceneId } }));
}
