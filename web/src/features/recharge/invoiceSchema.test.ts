import { describe, expect, it } from 'vitest';
import type { Bill } from './api/bills';
import { EMPTY_INVOICE, invoiceSchema, invoiceValues, toBillBody, visibleFields, type InvoiceForm } from './invoiceSchema';

const t = (key: string, options?: Record<string, unknown>) => (options ? `${key} ${JSON.stringify(options)}` : key);

const personal: InvoiceForm = {
  ...EMPTY_INVOICE,
  personalName: 'Alice Zhang',
  billUserName: 'Alice Zhang',
  billPhone: '13800138000',
  billMail: 'alice@example.com',
};

const enterprise: InvoiceForm = {
  ...personal,
  invoiceType: 2,
  companyName: 'Acme Cold Chain Ltd',
  taxNumber: '91310000MA1FL0000X',
  bankDeposit: 'Bank of Shanghai 6222 0000 0000',
};

function problems(form: InvoiceForm, edition: 'domestic' | 'international' = 'domestic'): Record<string, string> {
  const result = invoiceSchema(t, edition).safeParse(form);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
}

describe('the invoice form', () => {
  it('accepts a complete personal e-mail invoice and a complete enterprise one', () => {
    expect(problems(personal)).toEqual({});
    expect(problems(enterprise)).toEqual({});
    expect(problems({ ...personal, billMode: 1, billMail: '', billAddress: '88 Century Avenue, Shanghai' })).toEqual({});
  });

  it('defaults to a personal invoice by e-mail', () => {
    expect(invoiceValues()).toMatchObject({ invoiceType: 1, billMode: 2, isDefault: false });
  });

  it('shows company, tax number and bank only for an enterprise, the e-mail only in e-mail mode', () => {
    expect(visibleFields(1, 2)).toEqual(['personalName', 'billUserName', 'billPhone', 'billMail']);
    expect(visibleFields(2, 2)).toEqual(['companyName', 'taxNumber', 'bankDeposit', 'billUserName', 'billPhone', 'billMail']);
    expect(visibleFields(1, 1)).toEqual(['personalName', 'billUserName', 'billPhone', 'billAddress']);
    expect(visibleFields(2, 4)).toContain('billAddress');
  });

  it('requires every field it shows', () => {
    expect(problems({ ...EMPTY_INVOICE })).toEqual({
      personalName: 'invoice.required.personalName',
      billUserName: 'invoice.required.billUserName',
      billPhone: 'invoice.required.billPhone',
      billMail: 'invoice.required.billMail',
    });
    expect(problems({ ...EMPTY_INVOICE, invoiceType: 2, billMode: 1 })).toEqual({
      companyName: 'invoice.required.companyName',
      taxNumber: 'invoice.required.taxNumber',
      bankDeposit: 'invoice.required.bankDeposit',
      billUserName: 'invoice.required.billUserName',
      billPhone: 'invoice.required.billPhone',
      billAddress: 'invoice.required.billAddress',
    });
  });

  it('treats blanks as empty', () => {
    expect(problems({ ...personal, personalName: '   ' })).toEqual({ personalName: 'invoice.required.personalName' });
  });

  it('ignores what the type and mode hide', () => {
    expect(problems({ ...personal, companyName: 'x'.repeat(80), taxNumber: '!!', billAddress: 'x'.repeat(80) })).toEqual({});
  });

  it.each([
    ['companyName', 50],
    ['taxNumber', 20],
    ['bankDeposit', 50],
    ['billUserName', 30],
    ['billMail', 200],
  ] as const)('limits %s to %i characters (enterprise)', (field, max) => {
    const value = field === 'billMail' ? `${'a'.repeat(max - 12)}@example.com` : 'A'.repeat(max);
    expect(problems({ ...enterprise, [field]: value })).toEqual({});
    const longer = field === 'billMail' ? `a${value}` : `${value}A`;
    expect(problems({ ...enterprise, [field]: longer })).toEqual({ [field]: `invoice.tooLong {"max":${max}}` });
  });

  it('limits the personal name to 30 and the address to 50 characters', () => {
    expect(problems({ ...personal, personalName: 'x'.repeat(31) })).toEqual({ personalName: 'invoice.tooLong {"max":30}' });
    expect(problems({ ...personal, billMode: 1, billAddress: 'x'.repeat(51) })).toEqual({ billAddress: 'invoice.tooLong {"max":50}' });
  });

  it('takes letters and digits only for the tax number', () => {
    expect(problems({ ...enterprise, taxNumber: '9131-0000' })).toEqual({ taxNumber: 'invoice.taxNumberChars' });
    expect(problems({ ...enterprise, taxNumber: '税号123' })).toEqual({ taxNumber: 'invoice.taxNumberChars' });
  });

  it('checks the e-mail address', () => {
    for (const mail of ['alice', 'alice@', 'alice@example', 'a b@example.com']) {
      expect(problems({ ...personal, billMail: mail })).toEqual({ billMail: 'invoice.emailInvalid' });
    }
  });

  it('wants an 11-digit mainland mobile domestically', () => {
    for (const phone of ['1380013800', '138001380001', '12800138000', '+8613800138000', '010-12345678']) {
      expect(problems({ ...personal, billPhone: phone })).toEqual({ billPhone: 'invoice.phoneMainland' });
    }
    expect(problems({ ...personal, billPhone: '19912345678' })).toEqual({});
  });

  it('wants digits only internationally', () => {
    expect(problems({ ...personal, billPhone: '4155550123' }, 'international')).toEqual({});
    for (const phone of ['+1 415 555 0123', '415-555-0123', '123']) {
      expect(problems({ ...personal, billPhone: phone }, 'international')).toEqual({ billPhone: 'invoice.phoneDigits' });
    }
    expect(problems({ ...personal, billPhone: '1'.repeat(21) }, 'international')).toEqual({ billPhone: 'invoice.tooLong {"max":20}' });
  });

  it('sends trimmed values and leaves out what the type and mode hide', () => {
    expect(toBillBody({ ...enterprise, companyName: '  Acme Cold Chain Ltd ', personalName: 'hidden', billAddress: 'hidden' })).toEqual({
      invoiceType: 2,
      billMode: 2,
      billDefaultStatus: 0,
      companyName: 'Acme Cold Chain Ltd',
      taxNumber: '91310000MA1FL0000X',
      personalName: null,
      bankDeposit: 'Bank of Shanghai 6222 0000 0000',
      billUserName: 'Alice Zhang',
      billMail: 'alice@example.com',
      billPhone: '13800138000',
      billAddress: null,
    });
  });

  it('fills the form from a saved bill, keeping its default status', () => {
    const bill: Bill = {
      billId: 4,
      billDefaultStatus: 1,
      invoiceType: 2,
      billMode: 3,
      companyName: 'Acme',
      taxNumber: 'ABC123',
      personalName: null,
      bankDeposit: 'Bank',
      billUserName: 'Bob',
      billMail: null,
      billPhone: '13800138000',
      billAddress: 'Dock 4',
    };
    expect(invoiceValues(bill)).toEqual({
      invoiceType: 2,
      billMode: 3,
      companyName: 'Acme',
      taxNumber: 'ABC123',
      personalName: '',
      bankDeposit: 'Bank',
      billUserName: 'Bob',
      billMail: '',
      billPhone: '13800138000',
      billAddress: 'Dock 4',
      isDefault: true,
    });
  });
});
