import { Button, Classes, Icon, NonIdealState, Spinner } from '@blueprintjs/core';
import { ErrorIcon, FilterIcon, RefreshIcon, TimelineLineChartIcon } from '@blueprintjs/icons';
import { Suspense, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { echartsLocale } from '@/components/chart/chartOption';
import { EChart } from '@/components/chart/LazyEChart';
import type { DeviceDetail } from '@/lib/api/devices';
import { useHistory, type HistoryQuery } from '../api/history';
import { historyOption } from '../chart/chartOption';
import { maxPointsFor, WIDTH_STEP } from '../ranges';
import { RangeButtons, useQuickRange } from './RangeButtons';


/**
 * The width of an element, rounded to WIDTH_STEP so a small resize does not ask for new points;
 * null until measured, so the first request already fits the chart.
 */
function useRoundedWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const measure = () => setWidth(Math.ceil(element.clientWidth / WIDTH_STEP) * WIDTH_STEP);
    measure();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

/** The history chart with its quick ranges; each choice asks the server again, ending now. */
export function HistoryPanel({ device }: { device: DeviceDetail }) {
  const { t, i18n } = useTranslation('devices');
  const { range, choose } = useQuickRange();
  const { ref, width } = useRoundedWidth();
  const query: HistoryQuery | null =
    width === null
      ? null
      : {
          deviceId: device.deviceId,
          startTime: range.bounds.startTime,
          endTime: range.bounds.endTime,
          maxPoints: maxPointsFor(width),
        };
  const history = useHistory(query);
  const data = history.data;

  const labels = useMemo(
    () => ({
      probe: (probe: string) => t(`probe.${probe}`, { defaultValue: probe }),
      upperLimit: t('chart.upperLimit'),
      lowerLimit: t('chart.lowerLimit'),
    }),
    [t],
  );
  const option = useMemo(
    () =>
      data
        ? historyOption({
            points: data.points,
            probes: device.probes,
            unit: device.temperatureUnit,
            precision: device.displayPrecision,
            startMs: range.bounds.startMs,
            endMs: range.bounds.endMs,
            labels,
          })
        : null,
    [data, device.probes, device.temperatureUnit, device.displayPrecision, range.bounds, labels],
  );
  const locale = echartsLocale(i18n.language);

  return (
    <div className="jc-history" data-testid="device-history">
      <div className="jc-history-toolbar">
        <RangeButtons value={range.key} onChoose={choose} />
        <Button
          icon={<RefreshIcon />}
          variant="minimal"
          text={t('chart.refresh')}
          loading={history.isFetching}
          onClick={() => choose(range.key)}
          data-testid="history-refresh"
        />
        <span className={`${Classes.TEXT_MUTED} jc-history-summary`} data-testid="history-summary">
          {data && data.total > 0 && (
            <>
              {t('chart.summary', { count: data.total })}
              {data.downsampled && (
                <span className="jc-history-thinned">
                  <Icon icon={<FilterIcon />} size={12} />
                  {t('chart.downsampled', { count: data.points.length })}
                </span>
              )}
            </>
          )}
        </span>
      </div>
      <div ref={ref} className="jc-history-stage" aria-busy={history.isFetching} data-range={range.key}>
        {data === undefined ? (
          history.isError ? (
            <NonIdealState icon={<ErrorIcon />} title={t('chart.loadFailed')} className="jc-history-empty" />
          ) : (
            <Spinner size={32} className="jc-history-empty" />
          )
        ) : data.points.length === 0 ? (
          <div className="jc-history-empty" data-testid="history-empty">
            <NonIdealState icon={<TimelineLineChartIcon />} title={t('chart.empty')} description={t('chart.emptyHint')} />
          </div>
        ) : (
          option && (
            <Suspense fallback={<Spinner size={32} className="jc-history-empty" />}>
              <EChart option={option} locale={locale} className={history.isPlaceholderData ? 'jc-history-chart jc-stale' : 'jc-history-chart'} />
            </Suspense>
          )
        )}
      </div>
    </div>
  );
}
