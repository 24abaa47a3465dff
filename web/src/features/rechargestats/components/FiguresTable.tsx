import { HTMLTable } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { formatCents } from '@/lib/money';
import type { Figures } from '../api/statistics';

export type Column = keyof Figures;
/** As the export writes them: paid and its orders, refunded and its refunds, net. */
export const ALL_COLUMNS: readonly Column[] = ['paid', 'orders', 'refunded', 'refunds', 'net'];
const MONEY: ReadonlySet<Column> = new Set(['paid', 'refunded', 'net']);

export interface FiguresRow {
  key: string | number;
  name: string;
  figures: Figures;
  /** data-* attributes a test or a script finds the row by. */
  data?: Record<`data-${string}`, string>;
}

interface FiguresTableProps {
  nameHeader: string;
  rows: readonly FiguresRow[];
  currency: string;
  columns?: readonly Column[];
  testId: string;
}

/** Figures of a period, a pay type or a level a row; a phone reads each row as a card (jc-phone-cards). */
export function FiguresTable({ nameHeader, rows, currency, columns = ALL_COLUMNS, testId }: FiguresTableProps) {
  const { t, i18n } = useTranslation('rechargestats');
  const count = new Intl.NumberFormat(i18n.language);
  const cell = (column: Column, value: number) => (MONEY.has(column) ? formatCents(value, currency, i18n.language) : count.format(value));
  return (
    <HTMLTable className="jc-rs-table jc-phone-cards" striped compact data-testid={testId}>
      <thead>
        <tr>
          <th>{nameHeader}</th>
          {columns.map((column) => <th key={column} className="jc-rs-num">{t(`figure.${column}`)}</th>)}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key} data-testid={`${testId}-row`} {...row.data}>
            <td className="jc-rs-name">{row.name}</td>
            {columns.map((column) => (
              <td key={column} className={`jc-rs-num jc-rs-${column}`} data-label={t(`figure.${column}`)} data-column={column}>
                {cell(column, row.figures[column])}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
