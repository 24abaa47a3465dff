/**
 * The search-by-name box of a device table: the name as typed, sent (trimmed) on Search or Enter,
 * cleared with its cross. It follows `value` when the address changes it (a link, Back).
 */
import { Button, InputGroup } from '@blueprintjs/core';
import { CrossIcon, SearchIcon } from '@blueprintjs/icons';
import { useEffect, useState, type FormEvent } from 'react';
import { NAME_MAX } from '@/features/devices/schemas';
import './nameSearch.css';

export interface NameSearchProps {
  /** The name searched for now ('' for none). */
  value: string;
  onSearch: (name: string) => void;
  placeholder: string;
  searchText: string;
  clearLabel: string;
  /** Test ids: `<testId>` on the box, `<testId>-submit` on the button. */
  testId: string;
  /** The button's look: filled (default) or outlined. */
  outlined?: boolean;
}

export function NameSearch({ value, onSearch, placeholder, searchText, clearLabel, testId, outlined = false }: NameSearchProps) {
  const [name, setName] = useState(value);
  useEffect(() => setName(value), [value]);
  const search = (event: FormEvent) => {
    event.preventDefault();
    onSearch(name.trim());
  };
  const clear = () => {
    setName('');
    onSearch('');
  };
  return (
    <form className="jc-name-search" role="search" onSubmit={search}>
      <InputGroup
        type="search"
        leftIcon={<SearchIcon />}
        placeholder={placeholder}
        aria-label={placeholder}
        value={name}
        maxLength={NAME_MAX}
        onValueChange={setName}
        data-testid={testId}
        rightElement={name ? <Button variant="minimal" icon={<CrossIcon />} aria-label={clearLabel} onClick={clear} /> : undefined}
      />
      <Button type="submit" intent="primary" variant={outlined ? 'outlined' : undefined} text={searchText} data-testid={`${testId}-submit`} />
    </form>
  );
}
