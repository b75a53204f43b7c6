import { Carousel, CarouselPlaceholder, type Slide } from '../../components/carousel';
import { useGetCategoriesQuery } from '../../features/categories';
import { useGetSiteQuery, useMourning } from '../../features/site';
import { CompanyTitle, SiteFooter, SiteHeader, useCompanyName } from '../layout/layout';
import { ServiceList, reachableServices } from '../services';
import { HOME_LISTS } from './home/home-lists';
import { BusinessTiles } from './home/business-tiles';
import { DisclosureBlock } from './home/disclosure-block';
import { LeadStory, photoNews, pickLead } from './home/lead-story';
import { MediaVideoRow } from './home/media-video';
import { NewsColumn, moreText } from './home/news-lines';
import { TopicStrip } from './home/topic-strip';
import { articleHref, dayOf, useCategoryArticles } from './home/use-category-articles';
import './home/home.css';
import { messages } from '../../lib/locale';
import { linkHref, pageHref } from '../../lib/page-href';

/** The home page's sources: routes of the table, their categories found in the CMS's tree. */
const { news: NEWS, notices: NOTICES, party: PARTY, integrity: INTEGRITY } = HOME_LISTS;
const SLIDES = 5;

const text = messages({
  zh: {
    photos: '图片新闻',
    news: '公司要闻',
    notices: '通知公告',
    services: '客户服务',
    party: '党建工会',
    partyActivities: '党建活动',
    integrity: '清正廉洁',
    figuresOf: (shortName: string) => `数说${shortName}`,
    figures: '关键数据',
    partners: '合作伙伴',
  },
  en: {
    photos: 'Photo News',
    news: 'Company News',
    notices: 'Notices',
    services: 'Customer Services',
    party: 'Party Building and Trade Union',
    partyActivities: 'Party Building Activities',
    integrity: 'Integrity',
    figuresOf: (shortName: string) => `${shortName} in Figures`,
    figures: 'Key Figures',
    partners: 'Partners',
  },
});

/** 头条, 图片新闻, 要闻 and 通知公告: the top of the home page. */
function NewsRow({ stopped }: { stopped: boolean }) {
  const news = useCategoryArticles(NEWS);
  const notices = useCategoryArticles(NOTICES);
  const lead = pickLead(news.articles);
  const slides: Slide[] = photoNews(news.articles, lead, SLIDES).map((a) => ({ image: a.cover!, alt: '', title: a.title, text: dayOf(a), href: articleHref(a.id) }));
  const headlines = news.articles.filter((a) => a.id !== lead?.id);
  const photos = slides.length > 0 || news.loading;
  const newsShown = Boolean(news.category || news.loading);
  const noticesShown = Boolean(notices.category || notices.loading);
  // One list beside the pictures: it takes the rest of the row. Said by a class the server writes,
  // not by counting the row's children in CSS: a page painted while its HTML was still arriving
  // had two children, then three, and the row moved (a layout shift, on a slow machine).
  const oneList = photos && newsShown !== noticesShown;
  const t = text();
  return (
    <>
      <div className="container">
        <LeadStory article={lead} loading={news.loading} />
      </div>
      <div className={`container home-news-row${photos ? '' : ' home-news-row--no-photos'}${oneList ? ' home-news-row--one-list' : ''}`}>
        {slides.length > 0 ? (
          <Carousel slides={slides} label={t.photos} stopped={stopped} />
        ) : (
          news.loading && <CarouselPlaceholder />
        )}
        {newsShown && (
          <NewsColumn
            id="home-news-title"
            title={news.category?.name ?? t.news}
            route={NEWS.route}
            articles={headlines}
            loading={news.loading}
            lines={7}
          />
        )}
        {noticesShown && (
          <NewsColumn
            id="home-notices-title"
            title={notices.category?.name ?? t.notices}
            route={NOTICES.route}
            articles={notices.articles}
            loading={notices.loading}
            lines={7}
            className="home-column--notices"
          />
        )}
      </div>
    </>
  );
}

/** 客户服务: the company's systems and service pages (`[site.services]`), right under the news. */
function HomeServices() {
  const { data: site } = useGetSiteQuery();
  const { data: tree } = useGetCategoriesQuery();
  const services = reachableServices(site?.services ?? [], tree);
  if (services.length === 0) return null;
  return (
    <section className="home-services" aria-labelledby="home-services-title">
      <div className="container">
        <h2 id="home-services-title">{text().services}</h2>
        <ServiceList services={services} />
      </div>
    </section>
  );
}

/** 党建: the party's activities and 清正廉洁 side by side; none when the CMS has neither. */
function PartyBlock() {
  const party = useCategoryArticles(PARTY);
  const integrity = useCategoryArticles(INTEGRITY);
  if (!party.category && !integrity.category && !party.loading && !integrity.loading) return null;
  const t = text();
  const more = moreText();
  return (
    <section className="party-block" aria-labelledby="home-party-title">
      <div className="container">
        <div className="section-head">
          <h2 id="home-party-title">{t.party}</h2>
          <a href={pageHref('/party-construction')} className="more">
            {more.more}
            <span className="visually-hidden">{more.of(t.party)}</span>
          </a>
        </div>
        <div className="party-block__columns">
          {[
            { id: 'home-party-activities', route: PARTY.route, list: party, fallback: t.partyActivities },
            { id: 'home-party-integrity', route: INTEGRITY.route, list: integrity, fallback: t.integrity },
          ]
            .filter(({ list }) => list.category || list.loading)
            .map(({ id, route, list, fallback }) => (
              <NewsColumn
                key={id}
                id={id}
                title={list.category?.name ?? fallback}
                route={route}
                articles={list.articles}
                loading={list.loading}
                lines={5}
                className="home-column--party"
              />
            ))}
        </div>
      </div>
    </section>
  );
}

/** The operator's key figures and partners (`[site]`); each block only when listed. */
function SiteBlocks() {
  const { data: site } = useGetSiteQuery();
  const figures = site?.figures ?? [];
  const partners = site?.partners ?? [];
  const t = text();
  return (
    <>
      {figures.length > 0 && (
        <section className="container home-figures" aria-labelledby="home-figures-title">
          <h2 id="home-figures-title">{site?.shortName ? t.figuresOf(site.shortName) : t.figures}</h2>
          <ul>
            {figures.map((f) => (
              <li key={f.label}>
                <strong>{f.value}</strong>
                <span>{f.label}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {partners.length > 0 && (
        <section className="container home-partners" aria-labelledby="home-partners-title">
          <h2 id="home-partners-title">{t.partners}</h2>
          <ul className="partner-list">
            {partners.map((p) => (
              <li key={p.name}>{p.url ? <a href={linkHref(p.url)}>{p.name}</a> : <span>{p.name}</span>}</li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

/** The home entry, without the shared layout (spec §2): its own full-width header. */
export default function HomePage() {
  const companyName = useCompanyName();
  const mourning = useMourning();
  return (
    <div className="home">
      <CompanyTitle />
      <SiteHeader />
      <main id="main-content" tabIndex={-1}>
        <h1 className="visually-hidden">{companyName}</h1>
        <NewsRow stopped={mourning} />
        <HomeServices />
        <TopicStrip />
        <MediaVideoRow />
        <PartyBlock />
        <DisclosureBlock />
        <BusinessTiles />
        <SiteBlocks />
      </main>
      <SiteFooter />
    </div>
  );
}
