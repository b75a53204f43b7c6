import { render } from '@testing-library/react';

import { Highlight, highlightParts } from './highlight';
import { normalizeKeyword, parseSearch, searchHref } from './keyword';

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
    expect(parseSearch(href.split('?')[1])).toEqual({ keyword: '中欧 班列&', page: 3 });
    expect(parseSearch('q=&page=x')).toEqual({ keyword: null, page: 1 });
  });
});
