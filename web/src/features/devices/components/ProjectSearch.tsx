import { InputGroup } from '@blueprintjs/core';
import { SearchIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '@/hooks/useDebouncedValue';
import { useProjects } from '@/lib/api/projects';

const SEARCH_DELAY_MS = 300;
/** Projects offered at once: the first by name whose name holds what was typed. */
const PICKER_SIZE = 50;

/**
 * The projects whose name holds what was typed, searched on the server once typing pauses (there
 * may be more than one page of them): the move-to-project dialog and the device list's filter.
 */
export function useProjectSearch(enabled: boolean) {
  const [search, setSearch] = useState('');
  const searched = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  const projects = useProjects(searched, 1, PICKER_SIZE, enabled);
  return { search, setSearch, searched, projects };
}

interface ProjectSearchInputProps {
  value: string;
  onChange: (search: string) => void;
  className?: string;
  testId: string;
}

/** The box typed into. */
export function ProjectSearchInput({ value, onChange, className, testId }: ProjectSearchInputProps) {
  const { t } = useTranslation('devices');
  return (
    <InputGroup type="search" leftIcon={<SearchIcon />} value={value} onChange={(e) => onChange(e.currentTarget.value)}
      placeholder={t('project.search')} aria-label={t('project.search')} className={className} data-testid={testId} />
  );
}
