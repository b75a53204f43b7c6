export { siteApi, siteSpec, useGetSiteQuery, type Site } from './api';
export { chinaDate, isMourning, useMourning } from './mourning';
