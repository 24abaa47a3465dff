import { describe, expect, it } from 'vitest';
import {
  bindSchema,
  codeProblem,
  confirmProblem,
  contactSchema,
  emailProblem,
  loginSchema,
  passwordProblem,
  phoneProblem,
  recoverSchema,
  registerSchema,
  userNameProblem,
  type T,
} from './schemas';

/** Messages come back as their keys, so a test can say which rule spoke. */
const t: T = (key) => key;

/** The message of each field that failed, by field name. */
function problems(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) out[issue.path.join('.')] ??= issue.message;
  return out;
}

describe('user name rule (6-50; Chinese, letters, digits, underscore; no leading digit or underscore)', () => {
  it.each(['alice1', 'Alice_2026', '冷链用户名字', '张三abc_1', 'a'.repeat(50), 'abcdef'])('accepts %s', (name) => {
    expect(userNameProblem(name)).toBeNull();
  });

  it.each([
    ['', 'rule.userNameRequired'],
    ['alice', 'rule.userNameLength'],
    ['a'.repeat(51), 'rule.userNameLength'],
    ['1alice', 'rule.userNamePattern'],
    ['_alice', 'rule.userNamePattern'],
    ['alice bob', 'rule.userNamePattern'],
    ['alice-bob', 'rule.userNamePattern'],
    ['alice@bob', 'rule.userNamePattern'],
    ['アリスアリス', 'rule.userNamePattern'],
  ])('refuses %j with %s', (name, key) => {
    expect(userNameProblem(name)).toBe(key);
  });

  it('counts Chinese characters one each', () => {
    expect(userNameProblem('冷'.repeat(6))).toBeNull();
    expect(userNameProblem('冷'.repeat(5))).toBe('rule.userNameLength');
  });
});

describe('password rule (8-20 with a digit, an upper-case and a lower-case letter and a special character)', () => {
  it.each(['Tundra#Kettle42', 'Aa1!aaaa', 'Zz9_zzzzzzzzzzzzzzzz', 'Übung#12a'])('accepts %s', (password) => {
    expect(passwordProblem(password)).toBeNull();
  });

  it.each([
    ['', 'rule.passwordRequired'],
    ['Aa1!aaa', 'rule.passwordLength'],
    ['Aa1!' + 'a'.repeat(17), 'rule.passwordLength'],
    ['Aa1! aaaa', 'rule.passwordSpaces'],
    ['coldchain#2026', 'rule.passwordWeak'],
    ['COLDCHAIN#2026', 'rule.passwordWeak'],
    ['Coldchain#abcd', 'rule.passwordWeak'],
    ['Coldchain2026', 'rule.passwordWeak'],
    ['12345678', 'rule.passwordWeak'],
    ['Coldchain#2026', 'rule.passwordProduct'],
    ['My#C0ldCha1n9', 'rule.passwordProduct'],
    ['Elitech#2026', 'rule.passwordProduct'],
  ])('refuses %j with %s', (password, key) => {
    expect(passwordProblem(password)).toBe(key);
  });

  it.each([
    ['Carol_01#x9', 'carol_01'],
    ['x9#CAROL_01', 'Carol_01'],
    ['xX10_lorac!', 'carol_01'],
  ])('refuses %j holding the user name %j (or its reverse)', (password, userName) => {
    expect(passwordProblem(password, userName)).toBe('rule.passwordUserName');
  });

  it('does not look for names shorter than 3 characters', () => {
    expect(passwordProblem('Tundra#Kettle42', 'le')).toBeNull();
  });
});

describe('phone rule per edition', () => {
  it.each(['13800138000', '19912345678', '15000000000'])('domestic accepts %s', (phone) => {
    expect(phoneProblem(phone, 'domestic')).toBeNull();
  });

  it.each(['12800138000', '1380013800', '138001380000', '+8613800138000', '138-0013-8000', ''])(
    'domestic refuses %j',
    (phone) => {
      expect(phoneProblem(phone, 'domestic')).toBe(phone === '' ? 'rule.phoneRequired' : 'rule.phoneDomestic');
    },
  );

  it.each(['12345', '4915112345678', '123456789012345', '13800138000'])('international accepts %s', (phone) => {
    expect(phoneProblem(phone, 'international')).toBeNull();
  });

  it.each(['1234', '1234567890123456', '+4915112345678', '0151 1234567', 'phone'])('international refuses %j', (phone) => {
    expect(phoneProblem(phone, 'international')).toBe('rule.phoneInternational');
  });

  it('trims the number before checking it', () => {
    expect(contactSchema(t, 'domestic', 'phone').parse(' 13800138000 ')).toBe('13800138000');
  });
});

describe('e-mail rule', () => {
  it.each(['ops@example.com', 'first.last+tag@sub.example.co.uk', "o'neil@example.org"])('accepts %s', (email) => {
    expect(emailProblem(email)).toBeNull();
  });

  it.each([
    ['', 'rule.emailRequired'],
    ['ops', 'rule.emailInvalid'],
    ['ops@', 'rule.emailInvalid'],
    ['ops@example', 'rule.emailInvalid'],
    ['ops@@example.com', 'rule.emailInvalid'],
    ['ops example@example.com', 'rule.emailInvalid'],
    [`${'a'.repeat(190)}@example.com`, 'rule.emailTooLong'],
  ])('refuses %j with %s', (email, key) => {
    expect(emailProblem(email)).toBe(key);
  });

  it('allows exactly 200 characters', () => {
    const email = `${'a'.repeat(188)}@example.com`;
    expect(email).toHaveLength(200);
    expect(emailProblem(email)).toBeNull();
  });
});

describe('verification code rule (the server takes 4 to 8 digits)', () => {
  it.each(['1234', '123456', '12345678'])('accepts %s', (code) => expect(codeProblem(code)).toBeNull());
  it.each([
    ['', 'rule.codeRequired'],
    ['123', 'rule.codeInvalid'],
    ['123456789', 'rule.codeInvalid'],
    ['12a456', 'rule.codeInvalid'],
  ])('refuses %j with %s', (code, key) => expect(codeProblem(code)).toBe(key));
});

describe('confirm-password rule (required once the password has content; equal after trimming)', () => {
  it('is not required while the password is empty', () => {
    expect(confirmProblem('', '')).toBeNull();
  });

  it('is required once the password has content', () => {
    expect(confirmProblem('Coldchain#2026', '')).toBe('rule.confirmRequired');
  });

  it('compares the two after trimming whitespace', () => {
    expect(confirmProblem('Coldchain#2026', '  Coldchain#2026 ')).toBeNull();
    expect(confirmProblem(' Coldchain#2026', 'Coldchain#2026\t')).toBeNull();
  });

  it('refuses a different confirmation', () => {
    expect(confirmProblem('Coldchain#2026', 'Coldchain#2025')).toBe('rule.confirmMismatch');
    expect(confirmProblem('Coldchain#2026', 'coldchain#2026')).toBe('rule.confirmMismatch');
  });
});

describe('login form', () => {
  it('needs a name and a password, not a captcha until one is shown', () => {
    expect(loginSchema(t).safeParse({ userName: ' alice ', accountPassword: 'x', verifyCode: '' }).data).toEqual({
      userName: 'alice',
      accountPassword: 'x',
      verifyCode: '',
    });
    expect(problems(loginSchema(t).safeParse({ userName: '  ', accountPassword: '', verifyCode: '' }))).toEqual({
      userName: 'rule.loginNameRequired',
      accountPassword: 'rule.passwordRequired',
    });
  });

  it('accepts any stored password (the newer rule is for new passwords only)', () => {
    expect(loginSchema(t).safeParse({ userName: 'bob', accountPassword: 'old', verifyCode: '' }).success).toBe(true);
  });

  it('refuses names over 200 and passwords over 128 characters', () => {
    const result = loginSchema(t).safeParse({ userName: 'a'.repeat(201), accountPassword: 'p'.repeat(129), verifyCode: '' });
    expect(problems(result)).toEqual({ userName: 'rule.loginNameTooLong', accountPassword: 'rule.loginPasswordTooLong' });
  });

  it('needs the captcha answer once the captcha is shown', () => {
    const schema = loginSchema(t, true);
    expect(problems(schema.safeParse({ userName: 'a', accountPassword: 'p', verifyCode: ' ' }))).toEqual({
      verifyCode: 'rule.captchaRequired',
    });
    expect(problems(schema.safeParse({ userName: 'a', accountPassword: 'p', verifyCode: 'A'.repeat(11) }))).toEqual({
      verifyCode: 'rule.captchaInvalid',
    });
    expect(schema.safeParse({ userName: 'a', accountPassword: 'p', verifyCode: ' k7mp ' }).data?.verifyCode).toBe('k7mp');
  });
});

const registration = {
  userName: 'coldchain_ops',
  phone: '13800138000',
  email: '',
  code: '123456',
  accountPassword: 'Tundra#Kettle42',
  confirmPassword: 'Tundra#Kettle42',
};

describe('register form', () => {
  it('takes a phone in the domestic edition and ignores the e-mail field', () => {
    expect(registerSchema(t, 'domestic').safeParse(registration).success).toBe(true);
  });

  it('takes an e-mail in the international edition and ignores the phone field', () => {
    const values = { ...registration, phone: '', email: 'ops@example.com' };
    expect(registerSchema(t, 'international').safeParse(values).success).toBe(true);
    expect(problems(registerSchema(t, 'international').safeParse(registration))).toEqual({ email: 'rule.emailRequired' });
  });

  it('reports every broken rule on its own field', () => {
    const result = registerSchema(t, 'domestic').safeParse({
      userName: '1abc',
      phone: '1380013800',
      email: '',
      code: '12',
      accountPassword: 'password',
      confirmPassword: 'passw0rd',
    });
    expect(problems(result)).toEqual({
      userName: 'rule.userNameLength',
      phone: 'rule.phoneDomestic',
      code: 'rule.codeInvalid',
      accountPassword: 'rule.passwordWeak',
      confirmPassword: 'rule.confirmMismatch',
    });
  });

  it('trims the user name, phone and code it hands on', () => {
    const result = registerSchema(t, 'domestic').parse({ ...registration, userName: ' coldchain_ops ', phone: ' 13800138000', code: '123456 ' });
    expect(result).toMatchObject({ userName: 'coldchain_ops', phone: '13800138000', code: '123456' });
  });

  it('applies the confirm-password trimming rule', () => {
    expect(registerSchema(t, 'domestic').safeParse({ ...registration, confirmPassword: ' Tundra#Kettle42 ' }).success).toBe(true);
  });

  it('refuses a password holding the user name, on the password field', () => {
    const values = { ...registration, accountPassword: 'Ops_team#42', confirmPassword: 'Ops_team#42' };
    expect(problems(registerSchema(t, 'domestic').safeParse({ ...values, userName: 'ops_team' }))).toEqual({
      accountPassword: 'rule.passwordUserName',
    });
    expect(problems(registerSchema(t, 'domestic').safeParse({ ...registration, confirmPassword: '' }))).toEqual({
      confirmPassword: 'rule.confirmRequired',
    });
  });
});

describe('recover form', () => {
  const values = { phone: '13800138000', email: 'ops@example.com', code: '123456', accountPassword: 'Tundra#Kettle42', confirmPassword: 'Tundra#Kettle42' };

  it('checks the chosen channel only', () => {
    expect(recoverSchema(t, 'domestic', 'phone').safeParse({ ...values, email: 'not an address' }).success).toBe(true);
    expect(recoverSchema(t, 'domestic', 'email').safeParse({ ...values, phone: '' }).success).toBe(true);
    expect(problems(recoverSchema(t, 'domestic', 'email').safeParse({ ...values, email: 'x' }))).toEqual({ email: 'rule.emailInvalid' });
  });

  it('uses the edition phone rule', () => {
    expect(recoverSchema(t, 'international', 'phone').safeParse({ ...values, phone: '4915112345678' }).success).toBe(true);
    expect(problems(recoverSchema(t, 'domestic', 'phone').safeParse({ ...values, phone: '4915112345678' }))).toEqual({
      phone: 'rule.phoneDomestic',
    });
  });

  it('needs a new password by the newer rule and its confirmation', () => {
    expect(problems(recoverSchema(t, 'domestic', 'phone').safeParse({ ...values, accountPassword: 'short', confirmPassword: '' }))).toEqual({
      accountPassword: 'rule.passwordLength',
      confirmPassword: 'rule.confirmRequired',
    });
  });
});

describe('bind form', () => {
  it('needs the contact of its channel and a code', () => {
    expect(bindSchema(t, 'domestic', 'phone').safeParse({ phone: '13800138000', email: '', code: '123456' }).success).toBe(true);
    expect(bindSchema(t, 'domestic', 'email').safeParse({ phone: '', email: 'ops@example.com', code: '123456' }).success).toBe(true);
    expect(problems(bindSchema(t, 'international', 'phone').safeParse({ phone: '12', email: '', code: '' }))).toEqual({
      phone: 'rule.phoneInternational',
      code: 'rule.codeRequired',
    });
  });
});

describe('messages', () => {
  it('are written by the t it is given', () => {
    const upper: T = (key) => key.toUpperCase();
    expect(problems(loginSchema(upper).safeParse({ userName: '', accountPassword: 'x', verifyCode: '' }))).toEqual({
      userName: 'RULE.LOGINNAMEREQUIRED',
    });
  });
});
