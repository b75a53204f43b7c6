import { renderToStaticMarkup } from 'react-dom/server';

import type { ArticleSummary } from '../api';
import { ArticleList } from './article-list';

const article = (id: number, cover?: string): ArticleSummary =>
  ({ id, title: `标题${id}`, summary: '', publishTime: '2026-11-30 09:00:00', source: '', cover }) as ArticleSummary;

describe('a list’s pictures', () => {
  it('fetches the first at once and first (the page’s largest element on a phone); the rest wait for the screen', () => {
    const html = renderToStaticMarkup(
      <ArticleList articles={[article(1), article(2, '/a.svg'), article(3, '/b.svg'), article(4, '/c.svg')]} hrefOf={(a) => `/article/${a.id}`} />,
    );
    const images = [...html.matchAll(/<img [^>]*>/g)].map((m) => m[0]);
    expect(images).toHaveLength(3);
    expect(images[0]).toMatch(/loading="eager"/);
    expect(images[0]).toMatch(/fetchPriority="high"/);
    for (const later of images.slice(1)) {
      expect(later).toMatch(/loading="lazy"/);
      expect(later).not.toMatch(/fetchPriority="high"/);
    }
  });
});
