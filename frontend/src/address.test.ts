// The app and the gateway read a page's address alike: the same hostile values, fed to the app's
// readers here and to the gateway's page key in `pages::tests::an_address_value_is_read_as_the_app_reads_it`,
// give the answer `lib/address-cases.json` holds. A page the gateway renders from one reading and
// the browser hydrates from another would not match (nor would the canonical link).
import { queryRule, readPage, readParam } from './app/page-query';
import { sharePath } from './app/share-url';
import { listPageFromSearch, pageFromSearch } from './features/articles/list-page-slice';
import { parseSearch } from './features/search/keyword';
import cases from './lib/address-cases.json';
import { idOf } from './lib/id';

describe('an address value', () => {
  it.each(cases.cases.map((c) => [c.name, JSON.stringify(c.raw), c.raw, c.read] as const))(
    '%s=%s is read as the gateway reads it',
    (name, _shown, raw, expected) => {
      expect(readParam(name, raw)).toBe(expected);
    },
  );
});

describe('an address', () => {
  it.each(cases.pages.map((c) => [c.path, c.query, c.read] as const))(
    '%s?%s reads what the gateway keys the page by',
    (path, query, expected) => {
      expect(readPage(path, query)).toEqual(expected);
    },
  );

  it.each(cases.pages.map((c) => [c.path, c.query, c.read] as const))(
    '%s?%s is read so by the page itself',
    (path, query, expected) => {
      const value = (name: string): string | null => expected.find(([n]) => n === name)?.[1] ?? null;
      const number = (name: string): number | null => (value(name) === null ? null : Number(value(name)));
      const id = (name: string) => idOf(value(name));
      if (path === '/search') {
        expect(parseSearch(query)).toEqual({
          keyword: value('q'),
          page: number('page') ?? 1,
          section: id('section'),
          from: value('from'),
          to: value('to'),
        });
      } else if (path.startsWith('/article/')) {
        expect(listPageFromSearch(query)).toBe(number('listPage'));
      } else if (path === '/party/detail') {
        expect(idOf(new URLSearchParams(query).get('id'))).toBe(id('id'));
      } else {
        expect(pageFromSearch(query)).toBe(number('page'));
      }
    },
  );

  it.each(cases.pages.map((c) => [c.path, c.query, c.read] as const))(
    '%s?%s is shared with what names the page, as read',
    (path, query, expected) => {
      const { shares } = queryRule(path);
      const kept = expected.filter(([name, value]) => shares.includes(name) && !(name === 'page' && value === '1'));
      expect(sharePath(path, query)).toBe(`/portal${path}${kept.length ? `?${new URLSearchParams(kept)}` : ''}`);
    },
  );

  it('is read as the table says: each parameter it names has a reader, a page shares only what it reads', () => {
    const sample: Record<string, string> = { page: '2', listPage: '2', id: '9', section: '21', from: '2025-01-01', to: '2025-12-31', q: '班列' };
    for (const rule of [...cases.pages.map((c) => queryRule(c.path)), queryRule('/anything')]) {
      for (const name of rule.reads) expect(readParam(name, sample[name])).not.toBeNull();
      for (const name of rule.shares) expect(rule.reads).toContain(name);
    }
  });
});
