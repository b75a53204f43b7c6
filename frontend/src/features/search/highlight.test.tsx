import { render } from '@testing-library/react';

import { Highlight, highlightParts } from './highlight';
import { dayOf, normalizeKeyword, parseSearch, searchHref } from './keyword';

describe('highlight', () => {
  it('marks every occurrence, letters without case', () => {
    expect(highlightParts('中欧班列与班列运营 CRE cre', '班列')).toEqual([
      { text: '中欧', match: false },
      { text: '班列', match: true },
      { text: '与', match: false },
      { text: '班列', match: true },
      { text: '运营 CRE cre', match: false },
    ]);
    expect(highlightParts('CRE cre', 'cre').filter((p) => p.match)).toHaveLength(2);
  });

  it('keeps markup in the text or the keyword as text', () => {
    const { container } = render(<Highlight text={'<img src=x onerror=alert(1)> 班列'} keyword={'<img'} />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('mark')?.textContent).toBe('<img');
    const special = highlightParts('a.b(c)*', '(c)*');
    expect(special.find((p) => p.match)?.text).toBe('(c)*');
  });
});

describe('keyword', () => {
  it('is trimmed and 1 to 50 characters', () => {
    expect(normalizeKeyword('  班列 ')).toBe('班列');
    expect(normalizeKeyword('   ')).toBeNull();
    expect(normalizeKeyword('班'.repeat(50))).toBe('班'.repeat(50));
    expect(normalizeKeyword('班'.repeat(51))).toBeNull();
    expect(normalizeKeyword('a\u0001')).toBeNull();
  });

  it('round-trips through the route', () => {
    const href = searchHref('中欧 班列&', 3);
    expect(href).toBe('/search?q=%E4%B8%AD%E6%AC%A7%20%E7%8F%AD%E5%88%97%26&page=3');
    const none = { section: null, from: null, to: null };
    expect(parseSearch(href.split('?')[1])).toEqual({ keyword: '中欧 班列&', page: 3, ...none });
    expect(parseSearch('q=&page=x')).toEqual({ keyword: null, page: 1, ...none });
  });

  it('carries the index’s filters, each read as the gateway reads it', () => {
    const href = searchHref('班列', 2, { section: 21, from: '2025-01-01', to: '2025-12-31' });
    expect(href).toBe('/search?q=%E7%8F%AD%E5%88%97&section=21&from=2025-01-01&to=2025-12-31&page=2');
    expect(parseSearch(href.split('?')[1])).toEqual({
      keyword: '班列',
      page: 2,
      section: 21,
      from: '2025-01-01',
      to: '2025-12-31',
    });
    expect(parseSearch('q=a&section=a%2Fb&from=2025-02-30&to=2025-1-1')).toEqual({
      keyword: 'a',
      page: 1,
      section: null,
      from: null,
      // A day as people write it is read as the day it is (a form sent without the app's script).
      to: '2025-01-01',
    });
    expect(dayOf('2024-02-29')).toBe('2024-02-29');
    expect(dayOf('2025-02-29')).toBeNull();
  });
});
