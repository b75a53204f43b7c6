import { render, screen, within } from '@testing-library/react';

import { Menu } from '../components/menu/menu';
import type { MenuItem } from '../components/menu/types';
import { category as cat } from '../test/categories';
import type { Service } from '../lib/api-types';
import { ServiceList, reachableServices, withServices } from './services';


const TRACK: Service = { name: '货物追踪', icon: 'track', url: 'https://track.example.com/', description: '凭箱号查询在途位置' };
const BOOKING: Service = { name: '在线订舱', icon: 'booking', url: 'https://ebooking.example.com/', description: '' };
const TIMETABLE: Service = { name: '班列线路与时刻', icon: 'timetable', url: '/services/timetable', description: '各线路的发车日' };
const CONTACT: Service = { name: '联系客服', icon: 'service', url: '/contact', description: '' };

const item = (key: string, name: string, url: string, children: MenuItem[] = []): MenuItem => ({ key, name, url, children });
const SECTIONS: MenuItem[] = [
  item('1', '走进我们', '/about'),
  item('2', '新闻中心', '/news_center'),
  item('3', '业务板块', '/business'),
  item('4', '党建工会', '/party-construction'),
];

describe('客户服务', () => {
  it('leaves out a page of the portal the CMS does not have, and keeps systems and app pages', () => {
    const without = [cat(3, 0, '业务板块', '/business')];
    expect(reachableServices([TRACK, TIMETABLE, CONTACT], without)).toEqual([TRACK, CONTACT]);
    const withTimetable = [cat(8, 0, '客户服务', '/services', [cat(81, 8, '班列线路与时刻', '/services/timetable')])];
    expect(reachableServices([TRACK, TIMETABLE], withTimetable)).toEqual([TRACK, TIMETABLE]);
    // While the tree loads, nothing is dropped (the server's render has it loaded).
    expect(reachableServices([TIMETABLE], undefined)).toEqual([TIMETABLE]);
  });

  it('joins the CMS’s 客户服务 in the menu, after its sections and without repeating one', () => {
    const cms = [...SECTIONS.slice(0, 3), item('8', '客户服务', '/services', [item('81', '班列线路与时刻', '/services/timetable')]), SECTIONS[3]];
    const menu = withServices(cms, [TIMETABLE, TRACK, BOOKING]);
    expect(menu.map((i) => i.name)).toEqual(['走进我们', '新闻中心', '业务板块', '客户服务', '党建工会']);
    expect(menu[3].children.map((c) => [c.name, c.url])).toEqual([
      ['班列线路与时刻', '/services/timetable'],
      ['货物追踪', 'https://track.example.com/'],
      ['在线订舱', 'https://ebooking.example.com/'],
    ]);
  });

  it('makes the 客户服务 entry when the CMS has none, and adds nothing without services', () => {
    const menu = withServices(SECTIONS, [TRACK]);
    expect(menu.map((i) => i.name)).toEqual(['走进我们', '新闻中心', '业务板块', '客户服务', '党建工会']);
    expect(menu[3].children.map((c) => c.name)).toEqual(['货物追踪']);
    expect(menu[3].url).toBe(''); // no page of its own to link
    expect(withServices(SECTIONS, [])).toEqual(SECTIONS);
  });

  it('links a system at its own address and a page of the portal at its real address, in the menu too', () => {
    render(<ServiceList services={[TRACK, TIMETABLE]} />);
    expect(screen.getByRole('link', { name: /货物追踪/ })).toHaveAttribute('href', 'https://track.example.com/');
    expect(screen.getByRole('link', { name: /班列线路与时刻/ })).toHaveAttribute('href', '/portal/services/timetable');
    expect(screen.getByRole('link', { name: /货物追踪/ })).toHaveTextContent('凭箱号查询在途位置');
    const { container } = render(<Menu items={withServices(SECTIONS, [TRACK, TIMETABLE])} currentPath="/" />);
    const submenu = container.querySelector<HTMLElement>('#submenu-services')!;
    expect(within(submenu).getByRole('link', { name: '货物追踪', hidden: true })).toHaveAttribute('href', 'https://track.example.com/');
    expect(within(submenu).getByRole('link', { name: '班列线路与时刻', hidden: true })).toHaveAttribute('href', '/portal/services/timetable');
  });
});
