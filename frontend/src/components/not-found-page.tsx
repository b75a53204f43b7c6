import { pageHref } from '../lib/page-href';
export default function NotFoundPage() {
  return (
    <section className="content-page not-found">
      <p className="not-found__code" aria-hidden="true">
        404
      </p>
      <h1>页面不存在</h1>
      <p>您访问的页面不存在或已被移动，请检查链接是否正确。</p>
      <p>
        <a className="button" href={pageHref('/')}>
          返回首页
        </a>
      </p>
    </section>
  );
}
