import { Button, FormGroup, HTMLSelect, InputGroup, SegmentedControl } from '@blueprintjs/core';
import { RefreshIcon, ResetIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import type { DeviceOption } from '../api/deviceOptions';
import { PAGE_SIZES, rangeIsValid, STATE_FILTERS, type MessageFilters as Filters, type StateFilter } from '../listQuery';
import { DeviceFilter } from './DeviceFilter';

export interface MessageFiltersProps {
  /** The signed-in account. */
  accountId: number;
  /** The filters in force. */
  filters: Filters;
  /** Offer the device filter (it needs the device list permission). */
  withDevices: boolean;
  /** Some filters changed; the list starts again on page 1. */
  onRefine: (change: Partial<Filters>) => void;
  /** Back to no filters. */
  onReset: () => void;
  /** Asks the server again. */
  onRefresh: () => void;
  /** A page is on its way. */
  refreshing: boolean;
}

/** State, device and the days raised; reset and refresh. */
export function MessageFilters({ accountId, filters, withDevices, onRefine, onReset, onRefresh, refreshing }: MessageFiltersProps) {
  const { t } = useTranslation('messages');
  const valid = rangeIsValid(filters);
  const chooseDevice = (device: DeviceOption | null) =>
    onRefine({ deviceId: device?.deviceId ?? null, deviceName: device?.deviceName ?? '' });
  return (
    <div className="jc-msg-filters" role="search" aria-label={t('filter.label')}>
      <FormGroup label={t('filter.state')} className="jc-msg-filter">
        <SegmentedControl
          value={filters.state}
          onValueChange={(value) => onRefine({ state: value as StateFilter })}
          options={STATE_FILTERS.map((state) => ({ value: state, label: t(state === 'deferred' ? 'defer.filter' : `filter.${state}`) }))}
          data-testid="state-filter"
        />
      </FormGroup>
      {withDevices && (
        <FormGroup label={t('filter.device')} className="jc-msg-filter">
          <DeviceFilter accountId={accountId} deviceId={filters.deviceId} deviceName={filters.deviceName} onChange={chooseDevice} />
        </FormGroup>
      )}
      <FormGroup
        label={t('filter.raised')}
        className="jc-msg-filter jc-msg-filter--range"
        intent={valid ? 'none' : 'danger'}
        helperText={valid ? undefined : <span role="alert">{t('filter.rangeInvalid')}</span>}
      >
        <div className="jc-msg-range">
          <InputGroup
            type="date"
            value={filters.from}
            max={filters.to || undefined}
            onChange={(event) => onRefine({ from: event.target.value })}
            aria-label={t('filter.from')}
            intent={valid ? 'none' : 'danger'}
            data-testid="from-filter"
          />
          <span className="jc-msg-range-dash" aria-hidden="true">–</span>
          <InputGroup
            type="date"
            value={filters.to}
            min={filters.from || undefined}
            onChange={(event) => onRefine({ to: event.target.value })}
            aria-label={t('filter.to')}
            intent={valid ? 'none' : 'danger'}
            data-testid="to-filter"
          />
        </div>
      </FormGroup>
      <div className="jc-msg-filter-actions">
        <Button variant="minimal" icon={<ResetIcon />} text={t('filter.reset')} onClick={onReset} data-testid="filters-reset" />
        <Button variant="outlined" icon={<RefreshIcon />} text={t('filter.refresh')} onClick={onRefresh}
          loading={refreshing} data-testid="messages-refresh" />
      </div>
    </div>
  );
}

export interface PageSizeProps {
  /** Rows a page now. */
  value: number;
  /** Another size was chosen. */
  onChange: (pageSize: number) => void;
}

/** 10, 20, 30 or 40 rows a page. */
export function PageSize({ value, onChange }: PageSizeProps) {
  const { t } = useTranslation('messages');
  return (
    <HTMLSelect
      value={value}
      onChange={(event) => onChange(Number(event.target.value))}
      aria-label={t('filter.pageSize')}
      data-testid="page-size"
    >
      {PAGE_SIZES.map((size) => (
        <option key={size} value={size}>
          {t('filter.perPage', { count: size })}
        </option>
      ))}
    </HTMLSelect>
  );
}
