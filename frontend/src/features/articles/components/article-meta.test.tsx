import { renderToStaticMarkup } from 'react-dom/server';

import { ArticleMeta } from './article-meta';

const share = 'https://www.example.com/portal/article/2101';
const image = (cover: string) => {
  const html = renderToStaticMarkup(<ArticleMeta article={{ cover, summary: '摘要' }} shareUrl={share} />);
  return /property="og:image" content="([^"]*)"/.exec(html)?.[1];
};

describe('an article’s share picture', () => {
  it('is an absolute address whatever form the cover takes', () => {
    expect(image('/portal/api/files/a.jpg')).toBe('https://www.example.com/portal/api/files/a.jpg');
    expect(image('https://cdn.example.net/b.jpg')).toBe('https://cdn.example.net/b.jpg');
    expect(image('//cdn.example.net/c.jpg')).toBe('https://cdn.example.net/c.jpg');
  });
});
