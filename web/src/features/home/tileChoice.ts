/** Choosing and ordering the home page's tiles: the order of every tile, and which are kept. */

export interface TileChoice {
  /** Every tile, in the order the user put them. */
  order: string[];
  /** The tiles kept on the page. */
  kept: ReadonlySet<string>;
}

/** The user's tiles first, in their order, then the others as the server lists them. */
export function choiceOf(tiles: readonly string[], available: readonly string[]): TileChoice {
  const known = tiles.filter((tile) => available.includes(tile));
  return { order: [...known, ...available.filter((tile) => !known.includes(tile))], kept: new Set(known) };
}

/** The tile at `index` moved one place up (-1) or down (+1); at an end nothing moves. */
export function move(choice: TileChoice, index: number, by: -1 | 1): TileChoice {
  const to = index + by;
  if (to < 0 || to >= choice.order.length) return choice;
  const order = [...choice.order];
  [order[index], order[to]] = [order[to] as string, order[index] as string];
  return { ...choice, order };
}

export function toggle(choice: TileChoice, tile: string, on: boolean): TileChoice {
  const kept = new Set(choice.kept);
  if (on) kept.add(tile);
  else kept.delete(tile);
  return { ...choice, kept };
}

/** What is saved: the kept tiles in their order. */
export function keptTiles(choice: TileChoice): string[] {
  return choice.order.filter((tile) => choice.kept.has(tile));
}
