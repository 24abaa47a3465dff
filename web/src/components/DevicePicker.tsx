/**
 * Chooses devices from however many the account has (a scheduled report's, an asset's): the chosen ones as tags, and a search by
 * name that asks the server (a page of matches at a time), so device 5,000 is as easy to pick as
 * device 5. Names of devices chosen earlier come with the schedule.
 */
import { Checkbox, InputGroup, Spinner, Tag } from '@blueprintjs/core';
import { SearchIcon } from '@blueprintjs/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '@/hooks/useDebouncedValue';
import { fetchDevicePage, NAME_MAX } from '@/lib/api/devices';
import './devicePicker.css';

/** Matches shown at once: enough to scan, few enough to read; typing narrows the rest. */
export const PICKER_PAGE_SIZE = 20;
const TYPING_PAUSE_MS = 300;

export interface DevicePickerProps {
  value: readonly number[];
  onChange: (deviceIds: number[]) => void;
  /** Names already known (the schedule's devices), by id. */
  knownNames: Readonly<Record<number, string>>;
  testId?: string;
}

export function DevicePicker({ value, onChange, knownNames, testId = 'device-picker' }: DevicePickerProps) {
  const { t } = useTranslation('components');
  const [typed, setTyped] = useState('');
  const name = useDebouncedValue(typed.trim(), TYPING_PAUSE_MS);
  const query = { start: 1, pageSize: PICKER_PAGE_SIZE, ...(name ? { deviceName: name } : {}) };
  const matches = useQuery({
    queryKey: ['devices', 'picker', query],
    queryFn: () => fetchDevicePage(query),
    placeholderData: keepPreviousData,
  });
  // Names seen in any answer, so a tag keeps its name after the search moves on.
  const [seen, setSeen] = useState<Record<number, string>>({});
  useEffect(() => {
    const rows = matches.data?.data;
    if (rows) setSeen((before) => ({ ...before, ...Object.fromEntries(rows.map((d) => [d.deviceId, d.deviceName])) }));
  }, [matches.data]);
  const names = useMemo(() => ({ ...knownNames, ...seen }), [knownNames, seen]);
  const chosen = new Set(value);
  const toggle = (deviceId: number, on: boolean) =>
    onChange(on ? [...value, deviceId] : value.filter((id) => id !== deviceId));

  return (
    <div className="jc-picker" data-testid={testId}>
      {value.length > 0 && (
        <div className="jc-picker-chosen" data-testid={`${testId}-chosen`}>
          {value.map((id) => (
            <Tag key={id} minimal round onRemove={() => toggle(id, false)}>
              {names[id] ?? `#${id}`}
            </Tag>
          ))}
        </div>
      )}
      <InputGroup type="search" leftIcon={<SearchIcon />} value={typed} onValueChange={setTyped} maxLength={NAME_MAX}
        placeholder={t('devicePicker.search')} aria-label={t('devicePicker.search')} data-testid={`${testId}-search`}
        rightElement={matches.isFetching ? <Spinner size={16} /> : undefined} />
      <div className="jc-picker-list" data-testid={`${testId}-list`}>
        {matches.data === undefined ? (
          matches.isError ? <span className="jc-picker-error">{t('devicePicker.failed')}</span> : <Spinner size={20} />
        ) : matches.data.data.length === 0 ? (
          <span className="jc-picker-sub">{t('devicePicker.none')}</span>
        ) : (
          matches.data.data.map((d) => (
            <Checkbox key={d.deviceId} label={d.deviceName} checked={chosen.has(d.deviceId)}
              onChange={(e) => toggle(d.deviceId, e.currentTarget.checked)} />
          ))
        )}
      </div>
      {matches.data !== undefined && matches.data.totalCount > matches.data.data.length && (
        <div className="jc-picker-sub" data-testid={`${testId}-more`}>
          {t('devicePicker.more', { shown: matches.data.data.length, count: matches.data.totalCount })}
        </div>
      )}
    </div>
  );
}
