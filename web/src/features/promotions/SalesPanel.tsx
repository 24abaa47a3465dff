import { Button, ButtonGroup, Callout, Card, FormGroup, HTMLTable, InputGroup, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { ChartIcon, ErrorIcon } from '@blueprintjs/icons';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PagerFooter } from '@/components/PagerFooter';
import { usePaging } from '@/hooks/usePaging';
import { formatCents } from '@/lib/money';
import { formatInstant } from '@/lib/units';
import { useDeposits, useSales, type SalesPeriod } from './api/promotions';
import './promotions.css';

/** The server refuses a longer period (src/core/promotions/model.py PERIOD_MAX_DAYS). */
const MAX_DAYS = 1830;
const PRESETS = [7, 30, 365] as const;
const DAY_MS = 24 * 3600 * 1000;

const pad = (n: number) => String(n).padStart(2, '0');
const isoDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const addDays = (day: string, days: number) => {
  const [y, m, d] = day.split('-').map(Number);
  return isoDay(new Date(y!, m! - 1, d! + days));
};
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** The last `days` days up to today, both included. */
export function lastDays(days: number, today: Date = new Date()) {
  const to = isoDay(today);
  return { from: addDays(to, 1 - days), to };
}

/** From the first day's start until the end of the last (the server's end is excluded), in the caller's zone; or the problem's key. */
export function periodOf(from: string, to: string): SalesPeriod | string {
  if (!from || !to) return 'rule.dateRequired';
  if (to < from) return 'rule.endAfterStart';
  if (daysBetween(from, to) >= MAX_DAYS) return 'rule.period';
  return { startTime: `${from}T00:00:00`, endTime: `${addDays(to, 1)}T00:00:00` };
}

function Paid({ fees, language, testId }: { fees: Record<string, number>; language: string; testId?: string }) {
  const entries = Object.entries(fees);
  return (
    <span data-testid={testId}>
      {entries.length === 0 ? '—' : entries.map(([currency, cents]) => formatCents(cents, currency, language)).join(' + ')}
    </span>
  );
}

/** The sales tab of /service/package: what service and SMS/voice packages sold over a period, and each activity's sales. */
export default function SalesPanel() {
  const { t, i18n } = useTranslation('promotions');
  const language = i18n.language;
  const initial = useMemo(() => lastDays(30), []);
  const [from, setFrom] = useState(initial.from);
  const [to, setTo] = useState(initial.to);
  const [period, setPeriod] = useState<SalesPeriod>(() => periodOf(initial.from, initial.to) as SalesPeriod);
  const [problem, setProblem] = useState<string | null>(null);
  const { service, sms } = useSales(period);

  const show = (nextFrom: string, nextTo: string) => {
    const next = periodOf(nextFrom, nextTo);
    if (typeof next === 'string') {
      setProblem(t(next));
      return;
    }
    setProblem(null);
    setPeriod(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    show(from, to);
  };
  const preset = (days: number) => {
    const range = lastDays(days);
    setFrom(range.from);
    setTo(range.to);
    show(range.from, range.to);
  };
  const failed = service.isError || sms.isError;
  const loaded = service.data && sms.data;
  const totals: Record<string, number> = {};
  for (const view of [service.data, sms.data]) {
    for (const [currency, cents] of Object.entries(view?.paidFees ?? {})) totals[currency] = (totals[currency] ?? 0) + cents;
  }

  return (
    <div className="jc-pr" data-testid="pr-sales">
      <form className="jc-pr-period" onSubmit={submit} data-testid="pr-sales-period">
        <FormGroup label={t('sales.from')} labelFor="pr-sales-from" className="jc-pr-period-field">
          <InputGroup id="pr-sales-from" type="date" value={from} onChange={(e) => setFrom(e.currentTarget.value)}
            data-testid="pr-sales-from" />
        </FormGroup>
        <FormGroup label={t('sales.to')} labelFor="pr-sales-to" className="jc-pr-period-field">
          <InputGroup id="pr-sales-to" type="date" value={to} onChange={(e) => setTo(e.currentTarget.value)} data-testid="pr-sales-to" />
        </FormGroup>
        <Button type="submit" intent="primary" text={t('sales.show')} className="jc-pr-period-go" data-testid="pr-sales-show" />
        <ButtonGroup className="jc-pr-period-presets">
          {PRESETS.map((days) => (
            <Button key={days} text={t('sales.lastDays', { count: days })} onClick={() => preset(days)} data-testid={`pr-sales-${days}`} />
          ))}
        </ButtonGroup>
      </form>
      {problem && <Callout intent="danger" data-testid="pr-sales-error">{problem}</Callout>}
      {failed ? <NonIdealState icon={<ErrorIcon />} title={t('error.load')} /> : !loaded ? <Spinner /> : (
        <>
          <div className="jc-pr-totals" data-testid="pr-sales-totals">
            <Card className="jc-pr-total">
              <div className="jc-pr-muted">{t('sales.total')}</div>
              <strong><Paid fees={totals} language={language} testId="pr-sales-total" /></strong>
              <div className="jc-pr-muted">{t('sales.orders', { count: service.data.orders + sms.data.orders })}</div>
            </Card>
            <Card className="jc-pr-total">
              <div className="jc-pr-muted">{t('sales.service')}</div>
              <strong><Paid fees={service.data.paidFees} language={language} testId="pr-sales-service-total" /></strong>
              <div className="jc-pr-muted">{t('sales.orders', { count: service.data.orders })}</div>
            </Card>
            <Card className="jc-pr-total">
              <div className="jc-pr-muted">{t('sales.sms')}</div>
              <strong><Paid fees={sms.data.paidFees} language={language} testId="pr-sales-sms-total" /></strong>
              <div className="jc-pr-muted">{t('sales.orders', { count: sms.data.orders })}</div>
            </Card>
          </div>
          <p className="jc-pr-muted">{t('sales.note')}</p>
          <h4 className="jc-pr-group-title">{t('sales.service')}</h4>
          {service.data.rows.length === 0 ? <NonIdealState icon={<ChartIcon />} title={t('sales.none')} /> : (
            <HTMLTable className="jc-pr-table jc-phone-cards" striped compact data-testid="pr-sales-service">
              <thead>
                <tr>
                  <th>{t('sales.option')}</th>
                  <th>{t('sales.ordersColumn')}</th>
                  <th>{t('sales.devices')}</th>
                  <th>{t('sales.paid')}</th>
                </tr>
              </thead>
              <tbody>
                {service.data.rows.map((r) => (
                  <tr key={r.levelYearId} data-testid="pr-sales-service-row">
                    <td className="jc-pr-name-cell">
                      {r.packageName === null ? t('sales.deletedOption', { id: r.levelYearId }) : (
                        <><strong>{r.packageName} · {r.levelName}</strong> <span className="jc-pr-muted">{t('months', { count: r.timeLength ?? 0 })}</span></>
                      )}
                    </td>
                    <td data-label={t('sales.ordersColumn')}>{r.orders}</td>
                    <td data-label={t('sales.devices')}>{r.devices}</td>
                    <td data-label={t('sales.paid')}><Paid fees={r.paidFees} language={language} /></td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          )}
          <h4 className="jc-pr-group-title">{t('sales.sms')}</h4>
          {sms.data.rows.length === 0 ? <NonIdealState icon={<ChartIcon />} title={t('sales.none')} /> : (
            <HTMLTable className="jc-pr-table jc-phone-cards" striped compact data-testid="pr-sales-sms">
              <thead>
                <tr>
                  <th>{t('alertField.countryCode')}</th>
                  <th>{t('sales.ordersColumn')}</th>
                  <th>{t('sales.devices')}</th>
                  <th>{t('sales.messages')}</th>
                  <th>{t('sales.calls')}</th>
                  <th>{t('sales.paid')}</th>
                </tr>
              </thead>
              <tbody>
                {sms.data.rows.map((r) => (
                  <tr key={r.countryCode} data-testid="pr-sales-sms-row">
                    <td><strong>+{r.countryCode}</strong></td>
                    <td data-label={t('sales.ordersColumn')}>{r.orders}</td>
                    <td data-label={t('sales.devices')}>{r.devices}</td>
                    <td data-label={t('sales.messages')}>{r.smsCount}</td>
                    <td data-label={t('sales.calls')}>{r.voiceCount}</td>
                    <td data-label={t('sales.paid')}><Paid fees={r.paidFees} language={language} /></td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          )}
        </>
      )}
      <ActivitySales />
    </div>
  );
}

/** Each activity with what was paid at its price, whenever (activity/PayActivityDeposit/selectDepositList). */
function ActivitySales() {
  const { t, i18n } = useTranslation('promotions');
  const paging = usePaging();
  const query = useDeposits(paging.start, paging.pageSize);
  const page = query.data;
  return (
    <>
      <h4 className="jc-pr-group-title">{t('sales.byActivity')}</h4>
      {page === undefined ? (query.isError ? <NonIdealState icon={<ErrorIcon />} title={t('error.load')} /> : <Spinner />)
        : page.data.length === 0 ? <NonIdealState icon={<ChartIcon />} title={t('activity.none')} /> : (
          <HTMLTable className="jc-pr-table jc-phone-cards" striped compact data-testid="pr-sales-activities">
            <thead>
              <tr>
                <th>{t('field.name')}</th>
                <th className="jc-pr-wide">{t('column.validity')}</th>
                <th>{t('sales.ordersColumn')}</th>
                <th>{t('sales.paid')}</th>
              </tr>
            </thead>
            <tbody>
              {page.data.map((d) => (
                <tr key={d.activityId} data-testid="pr-sales-activity-row">
                  <td className="jc-pr-name-cell">
                    <strong>{d.name}</strong> <Tag minimal round>{t(`nature.${d.nature}`)}</Tag>
                  </td>
                  <td className="jc-pr-wide">
                    {formatInstant(d.startTime, i18n.language, false)} → {formatInstant(d.endTime, i18n.language, false)}
                  </td>
                  <td data-label={t('sales.ordersColumn')}>{d.paidOrders}</td>
                  <td data-label={t('sales.paid')}><Paid fees={d.paidFees} language={i18n.language} /></td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      {page !== undefined && page.totalCount > 0 && <PagerFooter {...paging.footer(page.totalCount)} />}
    </>
  );
}
