import { Breadcrumb } from '../../components/breadcrumb';
import { Loading } from '../../components/loading';
import type { ContentPageProps } from '../../features/articles';
import { useGetSiteQuery } from '../../features/site';
import { pageHref } from '../../lib/page-href';

/** 联系我们: the company's address, post code, telephone and e-mail, from the gateway's config. */
export default function ContactPage({ breadcrumb }: ContentPageProps) {
  const { data: site, isLoading } = useGetSiteQuery();
  if (isLoading) return <Loading />;
  return (
    <section className="content-page contact-page">
      <Breadcrumb items={breadcrumb} />
      <h1>联系我们</h1>
      <p className="lead">业务咨询、合作洽谈、媒体采访与意见建议，欢迎通过以下方式与{site?.companyName ?? '我们'}联系。</p>
      {site && (
        <dl className="contact-list">
          <dt>单位名称</dt>
          <dd>{site.companyName}</dd>
          {site.address && (
            <>
              <dt>通讯地址</dt>
              <dd>{site.address}</dd>
            </>
          )}
          {site.postcode && (
            <>
              <dt>邮政编码</dt>
              <dd>{site.postcode}</dd>
            </>
          )}
          {site.phone && (
            <>
              <dt>联系电话</dt>
              <dd>
                <a href={`tel:${site.phone.replace(/[^\d+]/g, '')}`}>{site.phone}</a>
              </dd>
            </>
          )}
          {site.email && (
            <>
              <dt>电子邮箱</dt>
              <dd>
                <a href={`mailto:${site.email}`}>{site.email}</a>
              </dd>
            </>
          )}
        </dl>
      )}
      <p>
        合作意向与友好往来请见<a href={pageHref('/liaison/friendly-cooperation')}>友好合作</a>，发展规划请见
        <a href={pageHref('/liaison/future-outlook')}>未来展望</a>。
      </p>
    </section>
  );
}
