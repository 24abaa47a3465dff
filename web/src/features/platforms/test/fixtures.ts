/** The answers of PayPdConfig as the server gives them: the domestic edition, camp 1 the demo's. */
import type { ConfigField, Overview, PayConfig } from '../api/payConfig';

export function overview(change: Partial<Overview> = {}): Overview {
  return {
    providers: ['wechat', 'alipay'],
    camps: [
      { camp: 0, platforms: [], own: { wechat: false, alipay: false } },
      { camp: 1, platforms: [{ topDomain: 'demo.localhost', title: 'Demo Cold Chain Cloud' }], own: { wechat: true, alipay: false } },
    ],
    ...change,
  };
}

const plain = (name: string, value: string, required = false, multiline = false): ConfigField =>
  ({ name, secret: false, required, multiline, value });
const secret = (name: string, last4: string | null, required = false, multiline = false): ConfigField =>
  ({ name, secret: true, required, multiline, set: last4 !== null, last4 });

/** Camp 1's WeChat Pay: its own, the API key stored, the merchant key not. */
export function wechat(change: Partial<PayConfig> = {}): PayConfig {
  return {
    camp: 1,
    provider: 'wechat',
    own: true,
    updatedAt: '2026-11-27 10:00:00',
    updatedBy: 'admin',
    notifyUrl: 'https://console.example/api/payment/notify/wechat/1',
    fields: [
      plain('appId', 'wx1234', true),
      plain('mchId', '1900000201', true),
      secret('apiKey', '9f3a', true),
      plain('papayPlanId', '12535'),
      plain('mchCert', '', false, true),
      secret('mchKey', null, false, true),
      secret('oauthSecret', null),
    ],
    ...change,
  };
}

/** A camp without its own configuration: nothing stored, every field empty. */
export function unset(config: PayConfig): PayConfig {
  return {
    ...config, own: false, updatedAt: null, updatedBy: null,
    fields: config.fields.map((field) => (field.secret ? { ...field, set: false, last4: null } : { ...field, value: '' })),
  };
}
