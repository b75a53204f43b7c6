// 客户服务 (issue 47): the entries `[[site.services]]` lists, the company's own systems (班列查询,
// 货物追踪, 在线订舱) and the portal's service pages (班列线路与时刻), shown in three places from
// that one list: a band near the top of the home page, the 客户服务 group page, and 客户服务's
// entries in the menu. A system opens at its own address; a page of the portal at its real address,
// and only where the portal has it (a content route the CMS lacks is left out, as tiles are).
import type { ReactNode } from 'react';

import type { MenuItem } from '../components/menu/types';
import { findByUrl, type Category } from '../features/categories';
import type { Service, ServiceIcon as IconName } from '../lib/api-types';
import { messages } from '../lib/locale';
import { linkHref } from '../lib/page-href';
import { routeTrail, shownRoute } from './routes';

/** The group whose page and menu entry list the services (the route table's 客户服务). */
export const SERVICES_PATH = '/services';

const text = messages({
  zh: { services: '客户服务' },
  en: { services: 'Customer Services' },
});

/** Line drawings on a 24-unit grid, in the text's colour; the generated type keeps the map complete. */
const ICONS: Record<IconName, ReactNode> = {
  route: (
    <>
      <circle cx="6" cy="18" r="2" />
      <circle cx="18" cy="6" r="2" />
      <path d="M6 16V10a4 4 0 0 1 4-4h6M18 8v6a4 4 0 0 1-4 4H8" />
    </>
  ),
  track: (
    <>
      <path d="M12 21s-6.5-5.6-6.5-11.2a6.5 6.5 0 0 1 13 0C18.5 15.4 12 21 12 21z" />
      <circle cx="12" cy="9.8" r="2.4" />
    </>
  ),
  booking: (
    <>
      <rect x="5" y="4" width="14" height="17" rx="2" />
      <path d="M9 4V2.5h6V4M9 13l2 2 4-4" />
    </>
  ),
  timetable: (
    <>
      <rect x="3" y="5" width="18" height="16" rx="2" />
      <path d="M3 10h18M8 3v4M16 3v4M7.5 14h3M7.5 17.5h7" />
    </>
  ),
  customs: (
    <>
      <path d="M12 3l7 3v5c0 4.6-3 8.1-7 10-4-1.9-7-5.4-7-10V6z" />
      <path d="M9 12l2 2 4-4" />
    </>
  ),
  invoice: (
    <>
      <path d="M6 3h12v18l-3-2-3 2-3-2-3 2z" />
      <path d="M9 8h6M9 12h6M9 16h3" />
    </>
  ),
  service: (
    <>
      <path d="M4 15v-3a8 8 0 0 1 16 0v3" />
      <rect x="3" y="14" width="4" height="6" rx="1" />
      <rect x="17" y="14" width="4" height="6" rx="1" />
      <path d="M19 20c0 1.2-1.3 2-3 2h-3" />
    </>
  ),
  warehouse: (
    <>
      <path d="M3 21V9l9-5 9 5v12" />
      <path d="M7 21v-8h10v8M7 17h10" />
    </>
  ),
};

export function ServiceIcon({ icon }: { icon: IconName }) {
  return (
    <svg
      className="service-icon"
      viewBox="0 0 24 24"
      width="28"
      height="28"
      aria-hidden="true"
      focusable="false"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {ICONS[icon]}
    </svg>
  );
}

/**
 * The services a visitor can reach: every system's address, and the portal's pages that exist
 * (a content route only where the CMS has its category; `tree` undefined while it loads keeps them).
 */
export function reachableServices(services: readonly Service[], tree: readonly Category[] | undefined): Service[] {
  return services.filter((s) => {
    if (!s.url.startsWith('/') || s.url.startsWith('//') || tree === undefined) return true;
    const route = routeTrail(s.url).at(-1);
    return route === undefined ? true : shownRoute(route, tree, findByUrl);
  });
}

/** The services as icon tiles, each a plain link (it works before the app runs). */
export function ServiceList({ services }: { services: readonly Service[] }) {
  return (
    <ul className="service-list">
      {services.map((s) => (
        <li key={s.url}>
          <a className="service" href={linkHref(s.url)}>
            <ServiceIcon icon={s.icon} />
            <strong>{s.name}</strong>
            {s.description && <span>{s.description}</span>}
          </a>
        </li>
      ))}
    </ul>
  );
}

/**
 * The menu with 客户服务's entries: the configured services join the CMS's 客户服务 (after the
 * sections it has, without repeating one), or make that entry when the CMS has none, after the
 * first three top-level entries (where the demo's sits: after 业务板块).
 */
export function withServices(items: readonly MenuItem[], services: readonly Service[]): MenuItem[] {
  if (services.length === 0) return [...items];
  const entries = (known: readonly MenuItem[]) =>
    services
      .filter((s) => !known.some((k) => k.url === s.url))
      .map((s): MenuItem => ({ key: `service-${s.url}`, name: s.name, url: s.url, children: [] }));
  const at = items.findIndex((i) => i.url === SERVICES_PATH);
  if (at >= 0) {
    const group = items[at];
    return items.map((item, i) => (i === at ? { ...group, children: [...group.children, ...entries(group.children)] } : item));
  }
  // No page of its own (the CMS has no 客户服务 section): a heading over the entries, not a link.
  const group: MenuItem = { key: 'services', name: text().services, url: '', children: entries([]) };
  return [...items.slice(0, 3), group, ...items.slice(3)];
}
