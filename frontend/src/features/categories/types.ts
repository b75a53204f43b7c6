// The category as the gateway sends it (generated from its model): `type` is `group`, `page`
// (one page article) or `list` (paged articles), set by the CMS.
export type { Category } from '../../lib/api-types';
