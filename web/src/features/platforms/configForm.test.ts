import { beforeAll, describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { ApiError, NetworkError } from '@/lib/http/index';
import { setUpI18n } from '@/test/harness';
import { configSchema, initialValues, sortRefusal, valuesToSend } from './configForm';
import { wechat } from './test/fixtures';

beforeAll(setUpI18n);
const { fields } = wechat();

describe('the configuration form', () => {
  it('starts with the plain values and every secret empty', () => {
    expect(initialValues(fields)).toEqual({
      appId: 'wx1234', mchId: '1900000201', apiKey: '', papayPlanId: '12535', mchCert: '', mchKey: '', oauthSecret: '',
    });
  });

  it('requires a required secret only while none is stored', () => {
    const schema = configSchema(fields, i18next.t);
    expect(schema.safeParse({ ...initialValues(fields) }).success).toBe(true);
    const unstored = fields.map((field) => (field.name === 'apiKey' ? { ...field, set: false, last4: null } : field));
    const refused = configSchema(unstored, i18next.t).safeParse({ ...initialValues(fields), appId: '  ' });
    expect(refused.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['appId', 'Required'], ['apiKey', 'Required'],
    ]);
  });

  it('sends the plain fields trimmed, and only the secrets typed', () => {
    expect(valuesToSend(fields, { ...initialValues(fields), appId: ' wx9 ', mchKey: '-----BEGIN KEY-----\nAB\n-----END KEY-----\n' }))
      .toEqual({ appId: 'wx9', mchId: '1900000201', papayPlanId: '12535', mchCert: '', mchKey: '-----BEGIN KEY-----\nAB\n-----END KEY-----' });
  });

  it('puts values.<name> refusals under their fields, flat or nested, and the rest on the form', () => {
    const flat = new ApiError(422, 422, 'Invalid input', { 'values.appId': ['Too long'], provider: ['Unknown provider'] });
    expect(sortRefusal(flat, fields, i18next.t)).toEqual({ fields: { appId: 'Too long' }, form: 'Unknown provider' });
    const nested = new ApiError(422, 422, 'Invalid input', { values: { mchId: ['Digits only'] } } as unknown as Record<string, string[]>);
    expect(sortRefusal(nested, fields, i18next.t)).toEqual({ fields: { mchId: 'Digits only' }, form: null });
    expect(sortRefusal(new ApiError(409, 1234, 'Camp 9 has no platform'), fields, i18next.t).form).toBe('Camp 9 has no platform');
    expect(sortRefusal(new NetworkError('offline'), fields, i18next.t).form).toBeTruthy();
  });
});
