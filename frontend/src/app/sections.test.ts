import type { Category } from '../features/categories';
import { category as cat } from '../test/categories';
import { sectionOf, sectionOfCategory } from './sections';

const TREE: Category[] = [
  cat(2, 0, '新闻中心', '/news_center', [
    cat(21, 2, '公司要闻', '/news_center/company_announcement/1'),
    cat(22, 2, '媒体报道', '/news_center/media_coverage/2'),
    cat(23, 2, '通知公告', '/news_center/notice'),
  ]),
  cat(6, 0, '社会责任', '/social_responsibility', [
    cat(63, 6, '社会责任报告', '/social_responsibility/esg_report'),
    cat(61, 6, '社会影响', '/social_responsibility/social_influence', [], true),
    cat(69, 6, '无路由', ''),
  ]),
  cat(7, 0, '业务概览', '/business_overview', [cat(71, 7, '运营模式', '/business_overview/operation_mode', [], true), cat(72, 7, '班列站点', '/business_overview/cdb_site', [], true)], true),
];

describe('the 栏目导航 of a page', () => {
  it('lists its section’s pages as the CMS names them', () => {
    expect(sectionOf(TREE, '/news_center/notice')).toEqual({
      name: '新闻中心',
      url: '/news_center',
      items: [
        { name: '公司要闻', url: '/news_center/company_announcement/1' },
        { name: '媒体报道', url: '/news_center/media_coverage/2' },
        { name: '通知公告', url: '/news_center/notice' },
      ],
    });
  });

  it('leaves out hidden pages and pages without a route, unless the page shown is hidden itself', () => {
    expect(sectionOf(TREE, '/social_responsibility/esg_report')?.items.map((i) => i.name)).toEqual(['社会责任报告']);
    expect(sectionOf(TREE, '/social_responsibility/social_influence')?.items.map((i) => i.name)).toEqual(['社会责任报告', '社会影响']);
    expect(sectionOf(TREE, '/business_overview/cdb_site')?.items.map((i) => i.name)).toEqual(['运营模式', '班列站点']);
  });

  it('falls back on the route table when the tree lacks the page (or has not come)', () => {
    const section = sectionOf([], '/about/honor');
    expect(section?.name).toBe('走进我们');
    expect(section?.url).toBe('/about');
    expect(section?.items.map((i) => i.url)).toContain('/about/honor');
    expect(section?.items).toHaveLength(9);
    // A route the table sends elsewhere (sameAs) is no entry.
    expect(sectionOf([], '/business_overview/operation_mode')?.items.map((i) => i.name)).toEqual(['运营模式', '班列站点', '运营线路']);
  });

  it('has none for a page outside any section', () => {
    expect(sectionOf(TREE, '/contact')).toBeUndefined();
    expect(sectionOf(TREE, '/news_center')).toBeUndefined();
  });

  it('gives an article its category’s section and the list to mark', () => {
    expect(sectionOfCategory(TREE, 22)).toEqual({ section: sectionOf(TREE, '/news_center/notice'), current: '/news_center/media_coverage/2' });
    expect(sectionOfCategory(TREE, 999)).toEqual({});
  });
});
