import { Button, ButtonGroup } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_RANGE, QUICK_RANGES, rangeBounds, type Bounds, type RangeKey } from '../ranges';

export interface ChosenRange {
  key: RangeKey;
  bounds: Bounds;
}

/** A quick range and its bounds, ending now; choosing a range (even the same) ends it now again. */
export function useQuickRange(initial: RangeKey = DEFAULT_RANGE) {
  const [range, setRange] = useState<ChosenRange>(() => ({ key: initial, bounds: rangeBounds(initial) }));
  const choose = (key: RangeKey) => setRange({ key, bounds: rangeBounds(key) });
  return { range, choose };
}

/** The quick time ranges of spec seed 001 section 9 as a button group. */
export function RangeButtons({ value, onChoose, keys }: {
  /** The range shown as chosen. */
  value: RangeKey;
  onChoose: (key: RangeKey) => void;
  /** The ranges offered; all of them when absent. */
  keys?: readonly RangeKey[];
}) {
  const { t } = useTranslation('devices');
  const offered = QUICK_RANGES.filter(({ key }) => !keys || keys.includes(key));
  return (
    <ButtonGroup variant="outlined" aria-label={t('chart.rangeLabel')} className="jc-history-ranges">
      {offered.map(({ key }) => (
        <Button
          key={key}
          text={t(`chart.range.${key}`)}
          active={value === key}
          intent={value === key ? 'primary' : 'none'}
          aria-pressed={value === key}
          data-testid={`range-${key}`}
          onClick={() => onChoose(key)}
        />
      ))}
    </ButtonGroup>
  );
}
