import { messages } from '../lib/locale';
import { pageHref } from '../lib/page-href';

const text = messages({
  zh: {
    title: '页面不存在',
    body: '您访问的页面不存在或已被移动，请检查链接是否正确。',
    home: '返回首页',
  },
  en: {
    title: 'Page not found',
    body: 'The page you are looking for does not exist or has been moved. Please check that the link is correct.',
    home: 'Back to Home',
  },
});

export default function NotFoundPage() {
  const t = text();
  return (
    <section className="content-page not-found">
      <p className="not-found__code" aria-hidden="true">
        404
      </p>
      <h1>{t.title}</h1>
      <p>{t.body}</p>
      <p>
        <a className="button" href={pageHref('/')}>
          {t.home}
        </a>
      </p>
    </section>
  );
}
