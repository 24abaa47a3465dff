/** What the server says about this installation's edition (GET /api/base/config). */
import { z } from 'zod';
import { LANGUAGES } from './i18n';

export const editionConfigSchema = z.object({
  edition: z.enum(['domestic', 'international']),
  currency: z.string(),
  payTypes: z.array(z.number()),
  defaultLanguage: z.enum(LANGUAGES),
  languages: z.array(z.string()),
  countryCode: z.string(),
  countryCodeFixed: z.boolean(),
  wechatAppId: z.string(),
  /** Outside sites of the routes plc, calibrationServe and marketManage. */
  externalLinks: z.record(z.string(), z.string()),
  /** The maps' base layer: an XYZ tile URL template, or empty for the shipped country outlines. */
  mapTiles: z.object({ url: z.string(), attribution: z.string() }),
});
export type EditionConfig = z.infer<typeof editionConfigSchema>;

const FALLBACK: EditionConfig = {
  edition: 'domestic',
  currency: 'CNY',
  payTypes: [1, 2],
  defaultLanguage: 'zh-CN',
  languages: [...LANGUAGES],
  countryCode: '86',
  countryCodeFixed: true,
  wechatAppId: '',
  externalLinks: {},
  mapTiles: { url: '', attribution: '' },
};

let current: EditionConfig = FALLBACK;

/** Read once at start-up, before anything is shown; without an answer the domestic defaults hold. */
export async function loadEditionConfig(fetcher: typeof fetch = fetch): Promise<EditionConfig> {
  try {
    const response = await fetcher('/api/base/config', { headers: { Accept: 'application/json' } });
    const body = (await response.json()) as { code: number; data: unknown };
    current = editionConfigSchema.parse(body.data);
  } catch {
    current = FALLBACK;
  }
  return current;
}

export function editionConfig(): EditionConfig {
  return current;
}

export function setEditionConfig(config: EditionConfig): void {
  current = config;
}
