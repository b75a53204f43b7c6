// An article's share card and description in the page's head, apart from the article's view: the
// route renders it (outside the article page's lazy chunk), so it is in every page's script, and
// the view, with its body handling and strings, is not (the initial load budget: docs/frontend.md).
import type { Article } from '../api';

/** The cover as an absolute address, for a share card. */
export function imageOf(article: Pick<Article, 'cover'>, shareUrl: string): string | undefined {
  if (!article.cover) return undefined;
  // Resolved as a browser would: a root-relative cover against the page, a protocol-relative one
  // (`//cdn…`) with the page's scheme, an absolute one as it is.
  try {
    return new URL(article.cover, shareUrl).href;
  } catch {
    return article.cover;
  }
}

/**
 * An article's share card and description in the page's head. Rendered by the route, outside the
 * article page's lazy chunk: React puts hoisted tags a lazy boundary hydrates into the head a
 * second time.
 */
export function ArticleMeta({ article, shareUrl }: { article: Pick<Article, 'summary' | 'cover'>; shareUrl: string }) {
  const image = imageOf(article, shareUrl);
  return (
    <>
      {article.summary && <meta name="description" content={article.summary} />}
      {article.summary && <meta property="og:description" content={article.summary} />}
      {image && <meta property="og:image" content={image} />}
    </>
  );
}

