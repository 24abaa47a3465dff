/**
 * The location before the current navigation, where an external route leaves the user: Root
 * remembers each location, the router's loader reads it (its own module, so that the two do not
 * import each other).
 */
let lastPath = '/';

export function rememberPath(path: string): void {
  lastPath = path;
}

export function rememberedPath(): string {
  return lastPath;
}
