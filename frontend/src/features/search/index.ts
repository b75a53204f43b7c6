export { SearchBox } from './search-box';
export type { SearchPageProps, Shortcut } from './search-page';
export { normalizeKeyword, parseSearch } from './keyword';
