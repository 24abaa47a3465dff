import { describe, expect, it } from 'vitest';
import { ApiError, CancelledError, NetworkError } from '@/lib/http/index';
import { sortError, waitSecondsOf } from './serverErrors';

const translate = (key: string) => `t:${key}`;
const fields = ['userName', 'phone', 'code'] as const;

describe('sorting a refusal onto a form', () => {
  it('puts 422 errors under their fields, joining several messages', () => {
    const error = new ApiError(422, 422, 'Invalid', { userName: ['too short', 'bad start'], phone: ['11 digits'] });
    expect(sortError(error, fields, {}, translate)).toEqual({
      fields: { userName: 'too short bad start', phone: '11 digits' },
      form: null,
    });
  });

  it('shows errors of fields the form does not have at form level', () => {
    const error = new ApiError(422, 422, 'Invalid', { _schema: ['Enter a phone number or an e-mail address'] });
    expect(sortError(error, fields, {}, translate)).toEqual({ fields: {}, form: 'Enter a phone number or an e-mail address' });
  });

  it('puts a business code on the field it is about', () => {
    const error = new ApiError(409, 1003, 'Wrong code');
    expect(sortError(error, fields, { 1003: 'code' }, translate)).toEqual({ fields: { code: 'Wrong code' }, form: null });
  });

  it('shows other refusals at form level', () => {
    expect(sortError(new ApiError(401, 1001, 'Incorrect user name or password'), fields, { 1003: 'code' }, translate)).toEqual({
      fields: {},
      form: 'Incorrect user name or password',
    });
  });

  it('words network failures and ignores cancelled requests', () => {
    expect(sortError(new NetworkError('offline'), fields, {}, translate).form).toBe('t:common:http.networkError');
    expect(sortError(new NetworkError('timeout'), fields, {}, translate).form).toBe('t:common:http.requestTimeout');
    expect(sortError(new CancelledError(), fields, {}, translate).form).toBeNull();
    expect(sortError(new Error('boom'), fields, {}, translate).form).toBe('t:common:http.errorMessage');
  });
});

describe('the wait of a 1007 refusal', () => {
  it('reads the seconds from the message in any language', () => {
    expect(waitSecondsOf(new ApiError(409, 1007, 'please wait 42 seconds'), 60)).toBe(42);
    expect(waitSecondsOf(new ApiError(409, 1007, '请在 17 秒后再试'), 60)).toBe(17);
  });

  it('ignores other codes and unreadable or implausible waits', () => {
    expect(waitSecondsOf(new ApiError(409, 1003, 'wait 42 seconds'), 60)).toBeNull();
    expect(waitSecondsOf(new ApiError(409, 1007, 'wait a little'), 60)).toBeNull();
    expect(waitSecondsOf(new ApiError(409, 1007, 'wait 3600 seconds'), 60)).toBeNull();
  });
});
