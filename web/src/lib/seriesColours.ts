/**
 * The colours of several devices' lines, in a trip's chart and on its route map alike, so a device
 * keeps one colour in both. Dark enough to read on the map's pale land and sea; the limits' red
 * (#cd4246) is left out.
 */
export const SERIES_COLOURS = ['#2d72d2', '#c87619', '#238551', '#9d3f9d', '#00a396', '#7961db', '#db2c6f', '#5f6b7c'] as const;

export function seriesColour(index: number): string {
  return SERIES_COLOURS[index % SERIES_COLOURS.length]!;
}
