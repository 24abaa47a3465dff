import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SHEET_MAX_BYTES, SHEET_MAX_ROWS, type SheetRow } from './api/manage';
import { loginsCsv, sheetFileProblem } from './sheetUpload';

describe('the batch add', () => {
  it("checks a file against the server's own limits", () => {
    // The server's document does not state them in a form a test can read: its source does.
    const sheets = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../../../src/core/devices/sheets.py'), 'utf8');
    // `NAME = 512 * 1024`: a product of whole numbers.
    const constant = (name: string) =>
      (new RegExp(`^${name} = ([\\d *]+)`, 'm').exec(sheets)?.[1] ?? 'NaN').split('*').reduce((product, factor) => product * Number(factor), 1);
    expect(constant('MAX_SHEET_BYTES')).toBe(SHEET_MAX_BYTES);
    expect(constant('MAX_SHEET_ROWS')).toBe(SHEET_MAX_ROWS);
    expect(sheetFileProblem(new File([], 'Loggers.XLSX'))).toBeNull();
    expect(sheetFileProblem(new File([], 'loggers.xls'))).toBe('type');
    expect(sheetFileProblem(new File([new Uint8Array(SHEET_MAX_BYTES + 1)], 'loggers.xlsx'))).toBe('size');
  });

  it('writes the logins as CSV that a spreadsheet keeps as text', () => {
    const row = (password: string): SheetRow => ({ row: 2, deviceGuid: 'G1234567', outcome: 'added', message: null, deviceId: 1, credentials: { username: 'G1234567', password } });
    const connection = { host: 'h', port: 1883, tls: false, topics: { telemetry: '', status: '', commands: '', acks: '' }, examplePayload: '' };
    const csv = loginsCsv([row('=1+1'), row('say "hi"')], { row: 'R', guid: 'G', password: 'P', host: 'H', port: 'N' }, connection);
    expect(csv.split('\r\n').slice(1)).toEqual(['"2","G1234567","\'=1+1","h","1883"', '"2","G1234567","say ""hi""","h","1883"', '']);
  });
});
