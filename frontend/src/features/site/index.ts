export { siteApi, useGetSiteQuery, type Site } from './api';
export { isMourning, useMourning } from './mourning';
