import { Button, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { SearchIcon } from '@blueprintjs/icons';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { STATUSES, type LabListFilter } from '@/lib/api/calibrationLab';

export interface ListFiltersProps {
  value: LabListFilter;
  /** A new filter chosen (the list starts again at its first page). */
  onChange: (filter: LabListFilter) => void;
}

const ANY = '';

/** The lab's list filters: a status, and a part of the application number. */
export function ListFilters({ value, onChange }: ListFiltersProps) {
  const { t } = useTranslation('calibrationlab');
  const [number, setNumber] = useState(value.applicationNumber);
  const search = (event: FormEvent) => {
    event.preventDefault();
    onChange({ ...value, applicationNumber: number.trim() });
  };
  return (
    <form className="jc-cl-filters" onSubmit={search} role="search">
      <FormGroup label={t('field.status')} labelFor="cl-status-filter" inline className="jc-cl-filter">
        <HTMLSelect id="cl-status-filter" value={value.status ?? ANY} data-testid="status-filter"
          onChange={(event) => onChange({ ...value, status: event.currentTarget.value === ANY ? null : Number(event.currentTarget.value) })}
          options={[{ value: ANY, label: t('list.anyStatus') }, ...STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))]} />
      </FormGroup>
      <InputGroup className="jc-cl-filter-number" type="search" leftIcon={<SearchIcon />} value={number} maxLength={40}
        placeholder={t('list.numberPlaceholder')} aria-label={t('field.number')} data-testid="number-filter"
        onChange={(event) => setNumber(event.currentTarget.value)} />
      <Button type="submit" text={t('list.search')} data-testid="number-search" />
    </form>
  );
}
