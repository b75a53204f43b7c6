export { SearchBox } from './search-box';
export type { SearchPageProps } from './search-page';
export { parseSearch } from './keyword';
