import { z } from 'zod';
import { api } from '@/lib/http/index';

export const accountInfoSchema = z.object({
  permissionRoutes: z.array(z.string()),
  orgWithMyRole: z.array(
    z.object({
      organizationId: z.number(),
      organizationName: z.string(),
      roleId: z.number(),
      roleCode: z.string(),
      roleName: z.string(),
      creator: z.boolean(),
    }),
  ),
  baseAccount: z.object({
    id: z.number(),
    userName: z.string(),
    accountPhoto: z.string().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    accountType: z.number(),
    realName: z.string().nullable(),
    company: z.string().nullable(),
    language: z.string().nullable(),
    timeZone: z.string().nullable(),
  }),
  userProfile: z.object({
    walletStatus: z.number(),
    homePage: z.string().nullable(),
    elitechIdentity: z.string().nullable(),
    elitechIndustry: z.string().nullable(),
    enableProtect: z.number(),
    enableFda: z.number(),
  }),
  premiumState: z.object({ state: z.number(), expiredCount: z.number() }),
  baseSceneList: z.array(z.object({ sceneType: z.number(), sceneName: z.string() })),
  elitechVersion: z.string(),
});
export type AccountInfo = z.infer<typeof accountInfoSchema>;

export async function fetchAccountInfo(): Promise<AccountInfo> {
  return accountInfoSchema.parse(await api.get('/base/BaseAccount/accountInfo', { params: { timestamp: Date.now() } }));
}
