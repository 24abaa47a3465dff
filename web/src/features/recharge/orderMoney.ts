/**
 * An order's amount in the order's own currency, whatever the edition shows today: format.ts
 * `formatMoney` ('¥159', '$159.20', 'EUR 159.20'; '--' when there is none), under the name My
 * orders uses; what was refunded of it with its cents (`formatExactMoney`: '¥49.50').
 */
export { formatExactMoney as refundedMoney, formatMoney as orderMoney } from './format';
