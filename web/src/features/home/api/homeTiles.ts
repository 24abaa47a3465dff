/**
 * GET and POST /base/BaseUserProfile/homeTiles: the tiles the user keeps on the home page, in
 * their order (at least `minimum`, each once), kept on the server for every browser they use.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/http/index';

export const homeTilesSchema = z.object({
  /** The user's tiles, in order. */
  tiles: z.array(z.string()),
  /** Every tile there is. */
  available: z.array(z.string()),
  /** Tiles a user keeps at least. */
  minimum: z.number(),
});
export type HomeTiles = z.infer<typeof homeTilesSchema>;

export const homeTileKeys = { all: ['home', 'tiles'] as const };

export async function fetchHomeTiles(): Promise<HomeTiles> {
  return homeTilesSchema.parse(await api.get('/base/BaseUserProfile/homeTiles', { silent: true }));
}

export async function saveHomeTiles(tiles: readonly string[]): Promise<HomeTiles> {
  return homeTilesSchema.parse(await api.post('/base/BaseUserProfile/homeTiles', { tiles }));
}

export function useHomeTiles() {
  return useQuery({ queryKey: homeTileKeys.all, queryFn: fetchHomeTiles });
}

export function useSaveHomeTiles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveHomeTiles,
    onSuccess: (saved) => queryClient.setQueryData(homeTileKeys.all, saved),
  });
}
