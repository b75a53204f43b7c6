import './contact-page.css';

import { Breadcrumb } from '../../components/breadcrumb';
import { telHref } from '../../components/contact-cta';
import { Loading } from '../../components/loading';
import { WHISTLEBLOWING_PATH, hasChannel } from '../../components/whistleblowing';
import type { ContentPageProps } from '../../features/articles';
import { findByUrl, useGetCategoriesQuery } from '../../features/categories';
import type { Department } from '../../lib/api-types';
import { pageHref } from '../../lib/page-href';
import { useGetSiteQuery } from '../../features/site';

/** One department's lines (每项 only when set). */
function DepartmentCard({ department, headingLevel = 3 }: { department: Department; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <>
      <Heading className="contact-card__name">{department.name}</Heading>
      {department.duties && <p className="contact-card__duties">{department.duties}</p>}
      <dl className="contact-list contact-card__lines">
        {department.phone && (
          <>
            <dt>电话</dt>
            <dd>
              <a href={telHref(department.phone)}>{department.phone}</a>
            </dd>
          </>
        )}
        {department.email && (
          <>
            <dt>邮箱</dt>
            <dd>
              <a href={`mailto:${department.email}`}>{department.email}</a>
            </dd>
          </>
        )}
      </dl>
    </>
  );
}

/**
 * 联系我们: the company's switchboard, hotline, address (with a drawn map and how to get there),
 * its departments and press office, all from the gateway's config (`[site]`, `[site.contact]`),
 * each part only when set; the ways to report and to cooperate where the site has them.
 */
export default function ContactPage({ breadcrumb }: ContentPageProps) {
  const { data: site, isLoading } = useGetSiteQuery();
  const { data: tree = [] } = useGetCategoriesQuery();
  if (isLoading) return <Loading />;
  const contact = site?.contact;
  const departments = contact?.departments ?? [];
  const directions = contact?.directions ?? [];
  const cooperation = findByUrl(tree, '/liaison/friendly-cooperation');
  return (
    <section className="content-page contact-page">
      <Breadcrumb items={breadcrumb} />
      <h1>联系我们</h1>
      <p className="lead">业务咨询、合作洽谈、媒体采访与意见建议，欢迎通过以下方式与{site?.companyName ?? '我们'}联系。</p>
      {site && (
        <div className="contact-page__main">
          <dl className="contact-list">
            <dt>单位名称</dt>
            <dd>{site.companyName}</dd>
            {site.hotline && (
              <>
                <dt>服务热线</dt>
                <dd>
                  <a className="contact-page__hotline" href={telHref(site.hotline)}>
                    {site.hotline}
                  </a>
                </dd>
              </>
            )}
            {site.phone && (
              <>
                <dt>总机电话</dt>
                <dd>
                  <a href={telHref(site.phone)}>{site.phone}</a>
                </dd>
              </>
            )}
            {contact?.hours && (
              <>
                <dt>办公时间</dt>
                <dd>{contact.hours}</dd>
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
          </dl>
          {contact?.mapImage && (
            <figure className="contact-page__map">
              <img src={contact.mapImage} alt={contact.mapAlt} width={720} height={420} loading="lazy" />
              <figcaption>位置示意图（非标准地图，仅供来访参考）</figcaption>
            </figure>
          )}
        </div>
      )}
      {directions.length > 0 && (
        <section aria-labelledby="contact-directions">
          <h2 id="contact-directions">交通指引</h2>
          <ul>
            {directions.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </section>
      )}
      {departments.length > 0 && (
        <section aria-labelledby="contact-departments">
          <h2 id="contact-departments">部门联系方式</h2>
          <ul className="contact-cards">
            {departments.map((d) => (
              <li key={d.name} className="contact-card">
                <DepartmentCard department={d} />
              </li>
            ))}
          </ul>
        </section>
      )}
      {contact?.media && (
        <section aria-labelledby="contact-media" className="contact-card contact-card--media">
          <h2 id="contact-media">新闻媒体联系</h2>
          <DepartmentCard department={contact.media} />
        </section>
      )}
      <p>
        {hasChannel(site?.whistleblowing) && (
          <>
            反映党员干部违纪违法问题，请见<a href={pageHref(WHISTLEBLOWING_PATH)}>信访举报</a>。
          </>
        )}
        {cooperation && (
          <>
            合作意向与友好往来请见<a href={pageHref(cooperation.url)}>{cooperation.name}</a>。
          </>
        )}
      </p>
    </section>
  );
}
