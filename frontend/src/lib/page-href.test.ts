import { articleHref, articleIdOf, pageHref, pageNumberOf } from './page-href';

describe('page addresses', () => {
  it('puts every route under /portal', () => {
    expect(pageHref('/news_center/notice')).toBe('/portal/news_center/notice');
    expect(pageHref('search')).toBe('/portal/search');
    expect(articleHref(2101)).toBe('/portal/article/2101');
  });

  it('reads an article id only as the API takes it', () => {
    expect(articleIdOf('2101')).toBe(2101);
    expect(articleIdOf('9007199254740991')).toBe(9007199254740991);
    for (const raw of ['0', '007', '-1', '1.5', '1e3', ' 12', '12abc', '9007199254740993', '12345678901234567890', '', null, undefined]) {
      expect(articleIdOf(raw)).toBeNull();
    }
  });

  it('reads a page number as the gateway does', () => {
    expect(pageNumberOf('3')).toBe(3);
    expect(pageNumberOf('007')).toBe(7);
    expect(pageNumberOf('100000')).toBe(100000);
    for (const raw of ['0', '100001', '1234567', '1e2', '0x10', ' 7', '2.0', '-2', '', null]) {
      expect(pageNumberOf(raw)).toBeNull();
    }
  });
});
