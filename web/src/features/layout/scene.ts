/**
 * Switching scenes (spec seed 000 section 4 "Scenes"): scene 1 opens the console afresh on its
 * landing page; scene 2 needs cloudChain.myProject in its permission list, else nothing changes.
 */
import { SCENE_TWO_PERMISSION } from '@/app/guard';
import { fetchScenePermissions } from '@/lib/api/scenePermissions';
import { session } from '@/lib/session';

/** What the layout does next: load the landing page, reload the page, or say "No permission!". */
export type SceneChoice = 'landing' | 'reload' | 'denied';

export async function chooseScene(
  sceneType: number,
  fetchPermissions: (sceneId: number) => Promise<string[]> = fetchScenePermissions,
): Promise<SceneChoice> {
  if (sceneType !== 2) {
    session.storeScene(1);
    return 'landing';
  }
  const permissions = await fetchPermissions(2);
  if (!permissions.includes(SCENE_TWO_PERMISSION)) return 'denied';
  session.storeScene(2);
  return 'reload';
}
