import { Button, MenuItem, Spinner } from '@blueprintjs/core';
import { CaretDownIcon, LayersIcon, MobilePhoneIcon } from '@blueprintjs/icons';
import { Select, type ItemRenderer } from '@blueprintjs/select';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '@/features/dialogs/useDebouncedValue';
import { DEVICE_SEARCH_MAX, useDeviceOptions, type DeviceOption } from '../api/deviceOptions';

/** How long typing pauses before the devices are asked for. */
const SEARCH_DELAY_MS = 300;

/** "All devices", then the caller's devices. */
type Choice = DeviceOption | null;

export interface DeviceFilterProps {
  /** The signed-in account (the device search is cached per account). */
  accountId: number;
  /** The chosen device, or null for all. */
  deviceId: number | null;
  /** The chosen device's name, as the address kept it. */
  deviceName: string;
  /** A device was chosen (null: all devices). */
  onChange: (device: DeviceOption | null) => void;
}

/** A searchable list of the caller's devices, searched on the server by name. */
export function DeviceFilter({ accountId, deviceId, deviceName, onChange }: DeviceFilterProps) {
  const { t } = useTranslation('messages');
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const search = useDebouncedValue(query, SEARCH_DELAY_MS);
  const options = useDeviceOptions(accountId, search, open);
  const items: Choice[] = [null, ...(options.data ?? [])];

  const renderItem: ItemRenderer<Choice> = (item, { handleClick, handleFocus, modifiers, ref }) => {
    if (!modifiers.matchesPredicate) return null;
    const selected = item === null ? deviceId === null : item.deviceId === deviceId;
    return (
      <MenuItem
        key={item?.deviceId ?? 'all'}
        ref={ref}
        active={modifiers.active}
        disabled={modifiers.disabled}
        selected={selected}
        roleStructure="listoption"
        text={item ? item.deviceName : t('filter.allDevices')}
        label={item?.deviceGuid}
        icon={item ? <MobilePhoneIcon /> : <LayersIcon />}
        onClick={handleClick}
        onFocus={handleFocus}
        data-testid="device-option"
      />
    );
  };

  const label = deviceId === null ? t('filter.allDevices') : deviceName || `#${deviceId}`;
  return (
    <Select<Choice>
      items={items}
      itemRenderer={renderItem}
      itemsEqual={(a, b) => (a?.deviceId ?? null) === (b?.deviceId ?? null)}
      onItemSelect={(item) => onChange(item)}
      query={query}
      onQueryChange={(next) => setQuery([...next].slice(0, DEVICE_SEARCH_MAX).join(''))}
      resetOnClose
      noResults={<MenuItem disabled text={t('filter.noDevices')} roleStructure="listoption" />}
      inputProps={{ placeholder: t('filter.searchDevice'), 'aria-label': t('filter.searchDevice') }}
      popoverProps={{
        placement: 'bottom-start',
        minimal: true,
        onOpening: () => setOpen(true),
        onClosed: () => setOpen(false),
      }}
      menuProps={{ 'aria-label': t('filter.device') }}
    >
      <Button
        className="jc-msg-device-filter"
        endIcon={options.isFetching && open ? <Spinner size={14} /> : <CaretDownIcon />}
        icon={<MobilePhoneIcon />}
        text={label}
        title={label}
        aria-label={`${t('filter.device')}: ${label}`}
        data-testid="device-filter"
      />
    </Select>
  );
}
