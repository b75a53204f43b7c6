import { sharePath, shareUrl } from './share-url';

describe('the address a visitor shares', () => {
  it('is the page’s real URL under /portal', () => {
    expect(sharePath('/')).toBe('/portal/');
    expect(sharePath('/news_center/notice')).toBe('/portal/news_center/notice');
    expect(sharePath('/article/2101', '')).toBe('/portal/article/2101');
  });

  it('keeps only the query that names what the page shows: a list’s page, a detail’s id, a search', () => {
    expect(sharePath('/news_center/notice', '?page=2')).toBe('/portal/news_center/notice?page=2');
    expect(sharePath('/party/detail', 'id=9&listPage=3')).toBe('/portal/party/detail?id=9');
    expect(sharePath('/article/2101', 'listPage=2&utm_source=wechat&from=timeline')).toBe('/portal/article/2101');
    expect(sharePath('/search', 'page=2&q=班列')).toBe(`/portal/search?q=${encodeURIComponent('班列')}&page=2`);
    expect(sharePath('/search', 'q=&page=')).toBe('/portal/search');
  });

  it('writes each value as the page reads it, as the gateway’s page key does', () => {
    expect(sharePath('/news_center/notice', '?page=02')).toBe('/portal/news_center/notice?page=2');
    expect(sharePath('/news_center/notice', '?page=0&x=1')).toBe('/portal/news_center/notice');
    expect(sharePath('/party/detail', '?id=0')).toBe('/portal/party/detail');
    expect(sharePath('/party/detail', '?id=a%2Fb')).toBe('/portal/party/detail');
    expect(sharePath('/party/detail', '?id=zx8k2m9q4w7e1r5t3y6u0i2o')).toBe('/portal/party/detail?id=zx8k2m9q4w7e1r5t3y6u0i2o');
    expect(sharePath('/search', `?q=${encodeURIComponent('\ufeff班列 ')}`)).toBe(`/portal/search?q=${encodeURIComponent('班列')}`);
  });

  it('writes the first page without ?page=1', () => {
    expect(sharePath('/news_center/notice', 'page=1')).toBe('/portal/news_center/notice');
    expect(sharePath('/search', 'q=%E7%8F%AD%E5%88%97&page=1')).toBe('/portal/search?q=%E7%8F%AD%E5%88%97');
  });

  it('starts with the site’s public URL (with or without its trailing slash), else is the path alone', () => {
    expect(shareUrl('/news_center/notice', '?page=2', 'https://www.example.com')).toBe('https://www.example.com/portal/news_center/notice?page=2');
    expect(shareUrl('/article/2101', 'listPage=2', 'https://www.example.com/')).toBe('https://www.example.com/portal/article/2101');
    expect(shareUrl('/article/2101', '', undefined)).toBe('/portal/article/2101');
    expect(shareUrl('/article/2101', '', '')).toBe('/portal/article/2101');
  });
});
