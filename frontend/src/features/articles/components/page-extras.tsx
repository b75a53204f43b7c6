import { ContactCta } from '../../../components/contact-cta';
import { WhistleblowingBlock } from '../../../components/whistleblowing';
import type { PageExtras as Extras } from '../types';
import { messages } from '../../../lib/locale';
import { pageHref } from '../../../lib/page-href';

const text = messages({
  zh: { overview: '业务概览' },
  en: { overview: 'Business overview' },
});

/** 业务概览 under a business page: the overview pages (routes, stations, how it runs), linked. */
function OverviewLinks({ pages, current }: { pages: { name: string; url: string }[]; current?: string }) {
  const others = pages.filter((p) => p.url !== current);
  if (others.length === 0) return null;
  return (
    <nav className="business-overview-links" aria-labelledby="business-overview-title">
      <h2 id="business-overview-title">{text().overview}</h2>
      <ul>
        {others.map((p) => (
          <li key={p.url}>
            <a href={pageHref(p.url)}>{p.name}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The app's additions under a page's content: a business page's way to 业务概览 and its call to
 * action, 清正廉洁's 信访举报.
 */
export function PageExtras({ extras, path }: { extras?: Extras; path?: string }) {
  if (!extras) return null;
  return (
    <>
      {extras.whistleblowing && <WhistleblowingBlock channel={extras.whistleblowing} />}
      {extras.overview && <OverviewLinks pages={extras.overview} current={path} />}
      {extras.contact && <ContactCta hotline={extras.contact.hotline} bookingUrl={extras.contact.bookingUrl} />}
    </>
  );
}
