/**
 * The public quick query (/pcQuick/waybill on a desktop, /mobileQuick/waybill on a phone; the guard
 * sends each device to its own): a waybill number or device GUID, and the trips found, each opening
 * its detail. The address holds the search (`?id=`, `&by=guid`), so a link can carry it.
 */
import { Button, Card, FormGroup, H2, HTMLSelect, InputGroup, Spinner } from '@blueprintjs/core';
import { ChevronRightIcon, SearchIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatInstant } from '@/lib/units';
import { QUERY_LIMITS, useTrips, type Search } from './api/quickQuery';
import { LookupFailed, NothingFound } from './components/Problem';
import { StateTag, limitsText } from './components/TripView';
import { searchFormSchema, searchOf, searchParams, type SearchForm } from './search';
import './quickQuery.css';

export const BASE = { desktop: '/pcQuick/waybill', mobile: '/mobileQuick/waybill' } as const;
export type Screen = keyof typeof BASE;

export function detailPath(screen: Screen, search: Search, index: number): string {
  const query = new URLSearchParams({ ...(search.kind === 'guid' ? { by: 'guid' } : {}), trip: String(index) });
  return `${BASE[screen]}/detail/${encodeURIComponent(search.value)}?${query.toString()}`;
}

function SearchBox({ initial, onSearch }: { initial: Search | null; onSearch: (search: Search) => void }) {
  const { t } = useTranslation('quickquery');
  const schema = useMemo(() => searchFormSchema(t), [t]);
  const { control, handleSubmit, watch } = useForm<SearchForm>({
    resolver: zodResolver(schema),
    defaultValues: { kind: initial?.kind ?? 'number', value: initial?.value ?? '' },
  });
  const kind = watch('kind');
  const submit = handleSubmit((form) => onSearch({ kind: form.kind, value: form.value.trim() }));
  return (
    <form className="jc-qq-search" onSubmit={(e) => void submit(e)} role="search" data-testid="quick-search">
      <Controller name="kind" control={control} render={({ field }) => (
        <FormGroup label={t('kind.label')} labelFor="quick-kind" className="jc-qq-kind">
          <HTMLSelect {...field} id="quick-kind" fill data-testid="quick-kind"
            options={(['number', 'guid'] as const).map((k) => ({ value: k, label: t(`kind.${k}`) }))} />
        </FormGroup>
      )} />
      <Controller name="value" control={control} render={({ field: { ref, ...field }, fieldState }) => (
        <FormGroup label={t(`kind.${kind}`)} labelFor="quick-value" className="jc-qq-value"
          intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message}>
          <InputGroup {...field} id="quick-value" inputRef={ref} maxLength={QUERY_LIMITS[kind] * 2}
            placeholder={t(`placeholder.${kind}`)} intent={fieldState.error ? 'danger' : 'none'}
            autoComplete="off" data-testid="quick-value" />
        </FormGroup>
      )} />
      <Button type="submit" intent="primary" icon={<SearchIcon />} text={t('search')} className="jc-qq-go"
        data-testid="quick-go" />
    </form>
  );
}

function QuickSearchPage({ screen }: { screen: Screen }) {
  const { t, i18n } = useTranslation('quickquery');
  const [params, setParams] = useSearchParams();
  const search = searchOf(params);
  const trips = useTrips(search);
  return (
    <div className={`jc-qq jc-qq-${screen}`} data-testid="quick-query-page">
      <header className="jc-qq-head">
        <H2>{t('title')}</H2>
        <p className="jc-qq-muted">{t('subtitle')}</p>
      </header>
      <Card className="jc-qq-card" elevation={0}>
        {/* A new search in the address (back button, a shared link) starts the form over. */}
        <SearchBox key={`${search?.kind}:${search?.value}`} initial={search} onSearch={(s) => setParams(searchParams(s))} />
      </Card>
      {search && (
        <section className="jc-qq-results" aria-live="polite" data-testid="quick-results">
          {trips.isPending ? <Spinner /> : trips.isError ? <LookupFailed error={trips.error} />
            : trips.data.length === 0 ? <NothingFound /> : (
              <>
                <p className="jc-qq-muted">{t('found', { count: trips.data.length })}</p>
                <ul className="jc-qq-list">
                  {trips.data.map((trip, index) => (
                    <li key={`${trip.verificationCode}-${index}`}>
                      <Link to={detailPath(screen, search, index)} className="jc-qq-row" data-testid="quick-trip">
                        <span className="jc-qq-row-main">
                          <strong>{trip.orderNum ?? '—'}</strong> <StateTag state={trip.state} />
                          <span className="jc-qq-muted">{trip.goodsName ?? ''}</span>
                        </span>
                        <span className="jc-qq-row-sub">
                          {limitsText(t, trip)} · {formatInstant(trip.startedAt, i18n.language, false)}
                        </span>
                        <span className="jc-qq-row-go">{t('details')} <ChevronRightIcon /></span>
                      </Link>
                    </li>
                  ))}
                </ul>
              </>
            )}
        </section>
      )}
    </div>
  );
}

export function DesktopSearch() {
  return <QuickSearchPage screen="desktop" />;
}

export function MobileSearch() {
  return <QuickSearchPage screen="mobile" />;
}
