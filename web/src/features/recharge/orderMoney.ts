/**
 * An order's amount in the order's own currency, whatever the edition shows today: format.ts
 * `formatMoney` ('¥159', '$159.20', 'EUR 159.20'; '--' when there is none), under the name My
 * orders uses.
 */
export { formatMoney as orderMoney } from './format';
