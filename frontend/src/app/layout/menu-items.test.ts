import { ROUTES } from '../routes';
import { menuFromRoutes } from './menu-items';

describe('the menu from the route table (when the category tree cannot load)', () => {
  const menu = menuFromRoutes(ROUTES);

  it('shows the groups with visible children and the children shown in the menu', () => {
    expect(menu.map((m) => m.name)).toEqual(['走进我们', '新闻中心', '业务板块', '客户服务', '党建工会', '联络合作', '信息公开', '社会责任']);
    const about = menu.find((m) => m.url === '/about');
    expect(about?.children.map((c) => c.url)).toContain('/about/honor');
  });

  it('leaves out what the spec hides', () => {
    const urls = menu.flatMap((m) => [m.url, ...m.children.map((c) => c.url)]);
    for (const hidden of ['/business_overview', '/development_history', '/party', '/login', '/topics', '/social_responsibility/social_influence', '/social_responsibility/friend_cooperation']) {
      expect(urls).not.toContain(hidden);
    }
    expect(menu.find((m) => m.url === '/social_responsibility')?.children.map((c) => c.name)).toEqual([
      '社会责任报告',
      '安全生产与环保',
      '乡村振兴与帮扶',
      '员工关爱',
    ]);
  });
});
