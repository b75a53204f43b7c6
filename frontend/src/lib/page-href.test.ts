import { idOf } from './id';
import { articleHref, pageHref, pageNumberOf } from './page-href';

describe('page addresses', () => {
  it('puts every route under /portal', () => {
    expect(pageHref('/news_center/notice')).toBe('/portal/news_center/notice');
    expect(pageHref('search')).toBe('/portal/search');
    expect(articleHref(2101)).toBe('/portal/article/2101');
  });

  it('reads an id only as the API takes it, in the form its JSON gives the same id', () => {
    expect(idOf('2101')).toBe(2101);
    expect(idOf('9007199254740991')).toBe(9007199254740991);
    // Not a number JSON carries plainly: the id is its text, as the gateway writes it.
    for (const raw of ['007', '1.5', '1e3', '12abc', '9007199254740993', '12345678901234567890', 'zx8k2m9q4w7e1r5t3y6u0i2o']) {
      expect(idOf(raw)).toBe(raw);
    }
    expect(articleHref('zx8k2m9q4w7e1r5t3y6u0i2o')).toBe('/portal/article/zx8k2m9q4w7e1r5t3y6u0i2o');
    for (const raw of ['0', '-1', '.', '..', ' 12', '1+2', 'a/b', '云川', 'a'.repeat(129), '', null, undefined]) {
      expect(idOf(raw)).toBeNull();
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
