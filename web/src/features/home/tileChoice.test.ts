import { describe, expect, it } from 'vitest';
import { choiceOf, keptTiles, move, toggle } from './tileChoice';

const ALL = ['total', 'online', 'offline', 'alarm', 'disabled', 'expired', 'notEnabled', 'expiring30', 'expiring90'];

describe('choosing the home tiles', () => {
  it('lists the kept tiles first in their order, then the others', () => {
    const choice = choiceOf(['alarm', 'total', 'gone'], ALL);
    expect(choice.order.slice(0, 3)).toEqual(['alarm', 'total', 'online']);
    expect(choice.order).toHaveLength(ALL.length);
    expect(keptTiles(choice)).toEqual(['alarm', 'total']);
  });

  it('moves a tile up or down and keeps the ends in place', () => {
    const choice = choiceOf(ALL.slice(0, 5), ALL);
    expect(keptTiles(move(choice, 1, -1)).slice(0, 2)).toEqual(['online', 'total']);
    expect(move(choice, 0, -1)).toBe(choice);
    expect(move(choice, ALL.length - 1, 1)).toBe(choice);
  });

  it('saves only the ticked tiles, in the order shown', () => {
    let choice = choiceOf(ALL.slice(0, 5), ALL);
    choice = toggle(choice, 'online', false);
    choice = toggle(choice, 'expiring90', true);
    choice = move(choice, ALL.length - 1, -1);
    expect(keptTiles(choice)).toEqual(['total', 'offline', 'alarm', 'disabled', 'expiring90']);
  });
});
