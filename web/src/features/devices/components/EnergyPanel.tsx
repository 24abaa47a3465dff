import { Button, ButtonGroup, Classes, NonIdealState, Spinner } from '@blueprintjs/core';
import { ErrorIcon, LightningIcon } from '@blueprintjs/icons';
import { Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { echartsLocale } from '@/components/chart/chartOption';
import { EChart } from '@/components/chart/LazyEChart';
import type { DeviceDetail } from '@/lib/api/devices';
import { formatNumber } from '@/lib/units';
import { ENERGY_INTERVALS, useEnergy, type EnergyInterval } from '../api/whereabouts';
import { energyOption } from '../chart/energyOption';
import type { RangeKey } from '../ranges';
import { RangeButtons, useQuickRange } from './RangeButtons';

// The server answers at most 92 days; hours make sense up to a week, days from a day on.
const RANGES: readonly RangeKey[] = ['12h', '24h', '7d', '15d', '30d'];

/** kWh per hour or per day over a quick range, as bars (devices with an energy meter only). */
export function EnergyPanel({ device }: { device: DeviceDetail }) {
  const { t, i18n } = useTranslation('devices');
  const { range, choose } = useQuickRange('24h');
  const [interval, setInterval] = useState<EnergyInterval>('hour');
  const energy = useEnergy({
    deviceId: device.deviceId,
    startTime: range.bounds.startTime,
    endTime: range.bounds.endTime,
    interval,
  });
  const data = energy.data;
  const option = useMemo(
    () => (data ? energyOption(data.buckets, interval, i18n.language, t('energy.series')) : null),
    [data, interval, i18n.language, t],
  );
  return (
    <div className="jc-history" data-testid="device-energy">
      <div className="jc-history-toolbar">
        <RangeButtons value={range.key} onChoose={choose} keys={RANGES} />
        <ButtonGroup variant="outlined" aria-label={t('energy.interval')}>
          {ENERGY_INTERVALS.map((key) => (
            <Button
              key={key}
              text={t(`energy.per.${key}`)}
              active={interval === key}
              aria-pressed={interval === key}
              data-testid={`energy-${key}`}
              onClick={() => setInterval(key)}
            />
          ))}
        </ButtonGroup>
        <span className={`${Classes.TEXT_MUTED} jc-history-summary`} data-testid="energy-total">
          {data && t('energy.total', { kwh: formatNumber(data.total, 2) })}
        </span>
      </div>
      <div className="jc-history-stage" aria-busy={energy.isFetching}>
        {data === undefined ? (
          energy.isError ? (
            <NonIdealState icon={<ErrorIcon />} title={t('energy.loadFailed')} className="jc-history-empty" />
          ) : (
            <Spinner size={32} className="jc-history-empty" />
          )
        ) : data.total === 0 ? (
          <div className="jc-history-empty" data-testid="energy-empty">
            <NonIdealState icon={<LightningIcon />} title={t('energy.empty')} />
          </div>
        ) : (
          option && (
            <Suspense fallback={<Spinner size={32} className="jc-history-empty" />}>
              <EChart option={option} locale={echartsLocale(i18n.language)} className="jc-history-chart" />
            </Suspense>
          )
        )}
      </div>
    </div>
  );
}
