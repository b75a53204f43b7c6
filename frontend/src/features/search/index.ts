export { SearchBox } from './search-box';
export type { SearchPageProps, Shortcut } from './search-page';
export { dayOf, normalizeKeyword, parseSearch } from './keyword';
export { searchLoads } from './loads';
