/**
 * The browser's localStorage, or undefined where there is none (tests without a DOM) or reading it throws
 * (some privacy modes block the property itself): callers then keep their state in memory only.
 */
export function browserStorage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}
