import type { EditionConfig } from '@/lib/config';

export const domestic: EditionConfig = {
  edition: 'domestic',
  currency: 'CNY',
  payTypes: [1, 2],
  defaultLanguage: 'zh-CN',
  languages: ['zh-CN', 'en-US'],
  countryCode: '86',
  countryCodeFixed: true,
  wechatAppId: '',
  externalLinks: {},
  mapTiles: { url: '', attribution: '' },
};

export const international: EditionConfig = {
  ...domestic,
  edition: 'international',
  currency: 'USD',
  payTypes: [20, 30, 40],
  defaultLanguage: 'en-US',
  countryCode: '1',
  countryCodeFixed: false,
};
