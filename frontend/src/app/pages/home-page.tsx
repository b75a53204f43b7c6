import { useState } from 'react';

import eurasia from '../../assets/banners/eurasia.svg';
import park from '../../assets/banners/park.svg';
import port from '../../assets/banners/port.svg';
import { Carousel, type Slide } from '../../components/carousel';
import { useGetArticlesQuery } from '../../features/articles';
import { findByUrl, useGetCategoriesQuery } from '../../features/categories';
import { useMourning } from '../../features/site';
import { SiteFooter, SiteHeader, useCompanyTitle } from '../layout/layout';
import { childrenOf } from '../routes';

// The news tabs and business tiles are the route table's children of their groups, as the menu
// shows them; only the tiles' one-line texts are written here, by route.
const NEWS_TABS = childrenOf('/news_center').map((r) => ({ url: r.path!, name: r.name }));

const BUSINESS_TEXT: Record<string, string> = {
  '/business/China-Europe_train': '常态化开行至欧洲、中亚的国际货运班列',
  '/business/industrial_park': '前港后园，通道经济转化为产业优势',
  '/business/cross_border': '集货、分拣、通关、干线一体化',
  '/business/oversea_location': '布局欧洲与中亚的六个海外仓',
  '/business/card_platform': '运力撮合、进场预约、在线结算',
};
const BUSINESS = childrenOf('/business').map((r) => ({ url: r.path!, name: r.name, text: BUSINESS_TEXT[r.path!] }));

const SLIDES: Slide[] = [
  {
    image: eurasia,
    alt: '一列满载集装箱的中欧班列沿虚线标出的线路穿越欧亚大陆',
    title: '中欧班列 通达欧亚',
    text: '常态化开行至汉堡、罗兹、布达佩斯、阿拉木图等 58 个境外城市',
    href: '#/business/China-Europe_train',
    action: '了解班列服务',
  },
  {
    image: port,
    alt: '国际陆港作业区：两台龙门吊下堆放着多层彩色集装箱',
    title: '云川国际陆港',
    text: '铁路装卸线 12 条，年设计吞吐能力 120 万标箱',
    href: '#/about/company_profile',
    action: '走进云川',
  },
  {
    image: park,
    alt: '融合创新产业园的厂房与办公楼，楼前种着成排绿树',
    title: '融合创新产业园',
    text: '前港后园，让物流通道成为产业走廊',
    href: '#/business/industrial_park',
    action: '产业园介绍',
  },
];

const PARTNERS = [
  '阿拉木图陆港运营公司',
  '罗兹多式联运场站',
  '汉堡港铁路物流公司',
  '布达佩斯物流园',
  '塔什干国际物流中心',
  '云川职业技术学院',
];

const FIGURES = [
  { value: '5200+', label: '中欧班列累计开行（列）' },
  { value: '58', label: '通达境外城市（个）' },
  { value: '120万', label: '陆港年设计吞吐能力（标箱）' },
  { value: '5.8万', label: '海外仓总面积（平方米）' },
];

function NewsBlock() {
  const { data: tree = [] } = useGetCategoriesQuery();
  const [active, setActive] = useState(0);
  const tab = NEWS_TABS[active];
  const category = findByUrl(tree, tab.url);
  const { data, isFetching } = useGetArticlesQuery({ categoryId: category?.id ?? 0, page: 1, size: 6 }, { skip: !category });
  const onKey = (event: React.KeyboardEvent, i: number) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const next = (i + step + NEWS_TABS.length) % NEWS_TABS.length;
    setActive(next);
    document.getElementById(`news-tab-${next}`)?.focus();
  };
  return (
    <section className="home-news" aria-labelledby="home-news-title">
      <div className="section-head">
        <h2 id="home-news-title">新闻中心</h2>
        <a href={`#${tab.url}`} className="more">
          更多<span className="visually-hidden">{tab.name}</span>
        </a>
      </div>
      <div role="tablist" aria-label="新闻分类" className="tabs">
        {NEWS_TABS.map((t, i) => (
          <button
            key={t.url}
            id={`news-tab-${i}`}
            type="button"
            role="tab"
            aria-selected={i === active}
            aria-controls="news-panel"
            tabIndex={i === active ? 0 : -1}
            onClick={() => setActive(i)}
            onKeyDown={(e) => onKey(e, i)}
          >
            {t.name}
          </button>
        ))}
      </div>
      <div id="news-panel" role="tabpanel" aria-labelledby={`news-tab-${active}`} aria-busy={isFetching}>
        <ul className="news-lines">
          {(data?.content ?? []).map((a) => (
            <li key={a.id}>
              <a href={`#/article/${a.id}`}>{a.title}</a>
              <time dateTime={a.publishTime?.slice(0, 10)}>{a.publishTime?.slice(0, 10)}</time>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

/** The home entry, without the shared layout (spec §2): its own full-width header. */
export default function HomePage() {
  const companyName = useCompanyTitle();
  const mourning = useMourning();
  return (
    <div className="home">
      <SiteHeader />
      <main id="main-content" tabIndex={-1}>
        <h1 className="visually-hidden">{companyName}</h1>
        <Carousel slides={SLIDES} label="集团要闻与业务" stopped={mourning} />
        <div className="container home__grid">
          <NewsBlock />
          <section className="home-figures" aria-labelledby="home-figures-title">
            <h2 id="home-figures-title">数说云川</h2>
            <ul>
              {FIGURES.map((f) => (
                <li key={f.label}>
                  <strong>{f.value}</strong>
                  <span>{f.label}</span>
                </li>
              ))}
            </ul>
          </section>
        </div>
        <section className="container home-business" aria-labelledby="home-business-title">
          <h2 id="home-business-title">业务板块</h2>
          <ul className="tile-list">
            {BUSINESS.map((b) => (
              <li key={b.url}>
                <a className="tile" href={`#${b.url}`}>
                  <strong>{b.name}</strong>
                  {b.text && <span>{b.text}</span>}
                </a>
              </li>
            ))}
          </ul>
        </section>
        <section className="container home-partners" aria-labelledby="home-partners-title">
          <div className="section-head">
            <h2 id="home-partners-title">合作伙伴</h2>
            <a href="#/liaison/friendly-cooperation" className="more">
              更多<span className="visually-hidden">合作伙伴</span>
            </a>
          </div>
          <ul className="partner-list">
            {PARTNERS.map((name) => (
              <li key={name}>
                <a href="#/liaison/friendly-cooperation">{name}</a>
              </li>
            ))}
          </ul>
        </section>
      </main>
      <SiteFooter />
    </div>
  );
}
