import { Button, Callout, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { SearchIcon } from '@blueprintjs/icons';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { isCancelled, useOwnPage, useRememberedApplications, type Application } from '@/lib/api/calibration';
import { useHeld } from '../components/held';
import { useMoney } from '../components/money';
import { addressOf } from '../ref';
import '../calibration.css';

const PAGE_SIZE = 20;

/**
 * /mobile/calibration/list: my applications, found by a part of the number. Logged in: the
 * account's; without an account: those this browser made (their tokens kept here).
 */
export default function ListPage() {
  const { t } = useTranslation('calibration');
  const money = useMoney();
  const [params, setParams] = useSearchParams();
  const number = (params.get('number') ?? '').trim().toUpperCase();
  const [typed, setTyped] = useState(number);
  // An account lists its own (calibration.order); without it, or without a login, this browser's.
  const account = useHeld('calibration.order');
  const own = useOwnPage({ start: 1, pageSize: PAGE_SIZE, ...(number ? { applicationNumber: number } : {}) }, account);
  const remembered = useRememberedApplications(!account);
  const rows: Application[] = account ? own.data?.data ?? []
    : (remembered.data ?? []).filter((a) => a.applicationNumber.includes(number));
  const pending = account ? own.isPending : remembered.isPending;
  const search = (event: FormEvent) => {
    event.preventDefault();
    setParams(typed.trim() ? { number: typed.trim() } : {});
  };
  return (
    <div className="jc-cal-mobile" data-testid="calibration-list">
      <h1>{t('list.title')}</h1>
      <form className="jc-cal-search" onSubmit={search} role="search">
        <input className="bp6-input" value={typed} placeholder={t('list.search')} aria-label={t('list.search')}
          data-testid="calibration-list-search" onChange={(e) => setTyped(e.target.value)} />
        <Button type="submit" icon={<SearchIcon />} text={t('list.searchButton')} data-testid="calibration-list-go" />
      </form>
      {!account && <Callout className="jc-cal-note">{t('list.guestNote')}</Callout>}
      {pending ? <Spinner size={30} /> : rows.length === 0 ? <NonIdealState icon={<SearchIcon />} description={t('list.empty')} /> : (
        <ul className="jc-cal-list">
          {rows.map((a) => (
            <li key={a.applicationNumber} data-testid="calibration-list-row">
              <Link to={`/mobile/calibration/detail/${encodeURIComponent(addressOf(a))}`}>
                <strong className="jc-cal-serial">{a.applicationNumber}</strong>
                <Tag minimal intent={isCancelled(a.status) ? 'warning' : a.status === 1 ? 'primary' : 'success'}>
                  {t(`status.${a.status}`)}
                </Tag>
                <span>{t('list.devices', { count: a.devices.length })} · {money(a.totalFee, a.currency)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
