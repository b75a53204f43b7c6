import type { Category } from '../features/categories';
import type { Site } from '../features/site';
import { shortcutsFor } from './service-shortcuts';

const channel = { phone: '0874-6288 5312', email: '', address: '', hours: '', website: '' };
const site = { whistleblowing: channel } as Site;
const cat = (id: number, name: string, url: string, type: Category['type'] = 'list'): Category =>
  ({ id, parentId: 0, name, url, type, sort: id, hidden: false, description: `${name}的说明`, subCategory: [] }) as unknown as Category;
const TREE: Category[] = [cat(104, '招标采购', '/disclosure/procurement'), cat(19, '领导信息', '/about/leadership', 'page')];

describe('the portal pages a search leads to (服务直达)', () => {
  it('finds 信访举报 by 举报, 信访 or a longer phrase holding them', () => {
    for (const word of ['举报', '信访', '举报电话', '纪检']) {
      expect(shortcutsFor(word, TREE, site).map((s) => s.path)).toContain('/whistleblowing');
    }
  });

  it('leaves 信访举报 out when the site has no way to report', () => {
    const none = { whistleblowing: { ...channel, phone: '' } } as Site;
    expect(shortcutsFor('举报', TREE, none).map((s) => s.path)).not.toContain('/whistleblowing');
  });

  it('finds 联系我们 by what visitors ask for', () => {
    expect(shortcutsFor('热线', TREE, site)[0]).toMatchObject({ path: '/contact', name: '联系我们' });
  });

  it('finds a page of the portal by its name or part of it, only when the CMS has it', () => {
    expect(shortcutsFor('招标', TREE, site)).toContainEqual({ path: '/disclosure/procurement', name: '招标采购', description: '招标采购的说明' });
    expect(shortcutsFor('领导', TREE, site).map((s) => s.path)).toEqual(['/about/leadership']);
    expect(shortcutsFor('领导', [], site)).toEqual([]);
  });

  it('finds nothing for a word no page is about, or a blank keyword', () => {
    expect(shortcutsFor('班列', TREE, site)).toEqual([]);
    expect(shortcutsFor('  ', TREE, site)).toEqual([]);
  });
});
