import { Button, Callout, Card, H2, H4, NonIdealState, Spinner } from '@blueprintjs/core';
import { ChartIcon, DownloadIcon, ErrorIcon, LockIcon } from '@blueprintjs/icons';
import { Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { echartsLocale } from '@/components/chart/chartOption';
import { EChart } from '@/components/chart/LazyEChart';
import { requestTimeZone } from '@/lib/http/index';
import { usePermissions } from '@/lib/permissions';
import { saveFile } from '@/lib/saveFile';
import { sortError } from '@/lib/serverErrors';
import { exportStatistics, useStatistics, type Statistics, type StatsRange } from './api/statistics';
import { FiguresTable, type FiguresRow } from './components/FiguresTable';
import { RangeForm } from './components/RangeForm';
import { SummaryCards } from './components/SummaryCards';
import { longLabel } from './format';
import { DEFAULT_CHOICE, quickRange, todayIn } from './range';
import { statisticsOption } from './statsOption';
import './rechargestats.css';

const PERMISSION = 'order.rechargeStatistics';

/**
 * Recharge statistics (/operation/rechargeStatistics, issue 19), what an operator reads every
 * morning: over a range of days, what was paid, paid back and kept, per day, week or month, by
 * pay type, by platform and by level, and the devices new, renewed and expired; the periods as an XLSX.
 */
export default function RechargeStatisticsPage() {
  const { t, i18n } = useTranslation(['rechargestats', 'app']);
  const held = usePermissions();
  const can = (action: string) => held.has(`${PERMISSION}:${action}`);
  // The server reads the days in the zone the client sends: today is that zone's.
  const today = useMemo(() => todayIn(requestTimeZone()), []);
  const [range, setRange] = useState<StatsRange>(() => quickRange(DEFAULT_CHOICE, today));
  const query = useStatistics(range, i18n.language, can('query'));
  const [exporting, setExporting] = useState(false);
  const stats = query.data;

  const runExport = async () => {
    setExporting(true);
    try {
      const file = await exportStatistics(range);
      saveFile(file.blob, file.fileName ?? 'recharge-statistics.xlsx');
    } catch {
      // the client has said why
    } finally {
      setExporting(false);
    }
  };

  if (!can('query')) {
    return <NonIdealState icon={<LockIcon />} title={t('notAllowed')} className="jc-rs-denied" />;
  }
  // A refused range (over 400 periods) is said in the server's words, under the form.
  const problem = query.isError ? sortError(query.error, [], {}, (key) => t(key)).form ?? t('loadFailed') : null;

  return (
    <div className="jc-rs" data-testid="rechargestats-page">
      <header className="jc-rs-head">
        <div>
          <H2>{t('app:route.rechargeStatistics')}</H2>
          <p className="jc-rs-muted">{t('subtitle')}</p>
        </div>
        {can('export') && (
          <Button icon={<DownloadIcon />} text={t('export')} loading={exporting} onClick={() => void runExport()}
            disabled={query.isError} data-testid="rs-export" />
        )}
      </header>
      <Card className="jc-rs-panel" elevation={0}>
        <RangeForm value={range} today={today} onApply={setRange} />
      </Card>
      {problem !== null ? (
        <Callout intent="danger" icon={<ErrorIcon />} title={t('loadFailed')} data-testid="rs-error">{problem}</Callout>
      ) : stats === undefined ? (
        <Spinner className="jc-rs-loading" />
      ) : (
        <div className={query.isPlaceholderData ? 'jc-rs-body jc-stale' : 'jc-rs-body'} aria-busy={query.isFetching}
          data-testid="rs-body" data-range={`${range.startDate}/${range.endDate}/${range.granularity}`}>
          <SummaryCards stats={stats} />
          {stats.total.orders === 0 && stats.total.refunds === 0 ? (
            <div className="jc-rs-empty" data-testid="rs-empty">
              <NonIdealState icon={<ChartIcon />} title={t('empty')} description={t('emptyHint')} />
            </div>
          ) : (
            <Breakdown stats={stats} granularity={range.granularity} />
          )}
        </div>
      )}
    </div>
  );
}

/** The chart of the periods, then the figures by pay type, by platform (more than one), by level and by period. */
function Breakdown({ stats, granularity }: { stats: Statistics; granularity: StatsRange['granularity'] }) {
  const { t, i18n } = useTranslation('rechargestats');
  const language = i18n.language;
  const option = useMemo(
    () => statisticsOption(stats.periods, granularity, stats.currency, language,
      { paid: t('figure.paid'), refunded: t('figure.refunded'), net: t('figure.net') }),
    [stats, granularity, language, t],
  );
  const payTypes: FiguresRow[] = stats.payTypes.map(({ payType, payTypeName, ...figures }) => (
    { key: payType, name: payTypeName, figures, data: { 'data-pay-type': String(payType) } }));
  const platforms: FiguresRow[] = stats.platforms.map(({ camp, platformName, ...figures }) => (
    { key: camp, name: platformName, figures, data: { 'data-camp': String(camp) } }));
  const levels: FiguresRow[] = stats.levels.map(({ levelId, levelName, ...figures }) => (
    { key: levelId, name: levelName ?? t('deletedLevel', { id: levelId }), figures }));
  // Newest first: the morning's reader looks for today.
  const periods: FiguresRow[] = [...stats.periods].reverse().map(({ start, end, ...figures }) => (
    { key: start, name: longLabel({ start, end }, granularity, language), figures, data: { 'data-start': start.slice(0, 10) } }));

  return (
    <>
      <Card className="jc-rs-panel jc-rs-chart-panel" elevation={0}>
        <H4>{t('chartTitle')}</H4>
        <div className="jc-rs-chart-stage">
          <Suspense fallback={<Spinner size={32} />}>
            <EChart option={option} locale={echartsLocale(language)} className="jc-rs-chart" />
          </Suspense>
        </div>
      </Card>
      <div className="jc-rs-split">
        <Card className="jc-rs-panel" elevation={0}>
          <H4>{t('byPayType')}</H4>
          <FiguresTable nameHeader={t('column.payType')} rows={payTypes} currency={stats.currency} testId="rs-paytypes" />
        </Card>
        {/* One platform (the console alone) would only repeat the total. */}
        {platforms.length > 1 && (
          <Card className="jc-rs-panel" elevation={0}>
            <H4>{t('byPlatform')}</H4>
            <FiguresTable nameHeader={t('column.platform')} rows={platforms} currency={stats.currency} testId="rs-platforms" />
          </Card>
        )}
        <Card className="jc-rs-panel" elevation={0}>
          <H4>{t('byLevel')}</H4>
          {levels.length === 0 ? <p className="jc-rs-muted" data-testid="rs-no-levels">{t('noLevels')}</p> : (
            <FiguresTable nameHeader={t('column.level')} rows={levels} currency={stats.currency} columns={['paid', 'orders']}
              testId="rs-levels" />
          )}
          <p className="jc-rs-muted jc-rs-note">{t('levelNote')}</p>
        </Card>
      </div>
      <Card className="jc-rs-panel" elevation={0}>
        <H4>{t('byPeriod')}</H4>
        <div className="jc-rs-scroll">
          <FiguresTable nameHeader={t('column.period')} rows={periods} currency={stats.currency} testId="rs-periods" />
        </div>
      </Card>
    </>
  );
}
