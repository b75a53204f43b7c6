import './contact-page.css';

import { Breadcrumb } from '../../components/breadcrumb';
import { telHref } from '../../components/contact-cta';
import { Loading } from '../../components/loading';
import { WHISTLEBLOWING_PATH, hasChannel } from '../../components/whistleblowing';
import type { ContentPageProps } from '../../features/articles';
import { findByUrl, useGetCategoriesQuery } from '../../features/categories';
import type { Department } from '../../lib/api-types';
import { messages } from '../../lib/locale';
import { pageHref } from '../../lib/page-href';
import { useGetSiteQuery } from '../../features/site';

const text = messages({
  zh: {
    title: '联系我们',
    lead: (who: string) => `业务咨询、合作洽谈、媒体采访与意见建议，欢迎通过以下方式与${who}联系。`,
    us: '我们',
    companyName: '单位名称',
    hotline: '服务热线',
    switchboard: '总机电话',
    hours: '办公时间',
    email: '电子邮箱',
    address: '通讯地址',
    postcode: '邮政编码',
    mapCaption: '位置示意图（非标准地图，仅供来访参考）',
    directions: '交通指引',
    departments: '部门联系方式',
    media: '新闻媒体联系',
    departmentPhone: '电话',
    departmentEmail: '邮箱',
    reportBefore: '反映党员干部违纪违法问题，请见',
    whistleblowing: '信访举报',
    reportAfter: '。',
    cooperationBefore: '合作意向与友好往来请见',
    cooperationAfter: '。',
  },
  en: {
    title: 'Contact us',
    lead: (who: string) =>
      `For business enquiries, partnership discussions, media interviews, comments and suggestions, please contact ${who} using the details below.`,
    us: 'us',
    companyName: 'Company',
    hotline: 'Customer hotline',
    switchboard: 'Switchboard',
    hours: 'Office hours',
    email: 'Email',
    address: 'Postal address',
    postcode: 'Postcode',
    mapCaption: 'Location sketch (not a standard map; for visitors’ reference only)',
    directions: 'Getting here',
    departments: 'Departments',
    media: 'Media enquiries',
    departmentPhone: 'Telephone',
    departmentEmail: 'Email',
    reportBefore: 'To report violations of discipline or the law by Party members or officials, see ',
    whistleblowing: 'Report misconduct',
    reportAfter: '. ',
    cooperationBefore: 'For partnership proposals and friendly exchanges, see ',
    cooperationAfter: '.',
  },
});

/** One department's lines (每项 only when set). */
function DepartmentCard({ department, headingLevel = 3 }: { department: Department; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const t = text();
  return (
    <>
      <Heading className="contact-card__name">{department.name}</Heading>
      {department.duties && <p className="contact-card__duties">{department.duties}</p>}
      <dl className="contact-list contact-card__lines">
        {department.phone && (
          <>
            <dt>{t.departmentPhone}</dt>
            <dd>
              <a href={telHref(department.phone)}>{department.phone}</a>
            </dd>
          </>
        )}
        {department.email && (
          <>
            <dt>{t.departmentEmail}</dt>
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
  const t = text();
  const contact = site?.contact;
  const departments = contact?.departments ?? [];
  const directions = contact?.directions ?? [];
  const cooperation = findByUrl(tree, '/liaison/friendly-cooperation');
  return (
    <section className="content-page contact-page">
      <Breadcrumb items={breadcrumb} />
      <h1>{t.title}</h1>
      <p className="lead">{t.lead(site?.companyName ?? t.us)}</p>
      {site && (
        <div className="contact-page__main">
          <dl className="contact-list">
            <dt>{t.companyName}</dt>
            <dd>{site.companyName}</dd>
            {site.hotline && (
              <>
                <dt>{t.hotline}</dt>
                <dd>
                  <a className="contact-page__hotline" href={telHref(site.hotline)}>
                    {site.hotline}
                  </a>
                </dd>
              </>
            )}
            {site.phone && (
              <>
                <dt>{t.switchboard}</dt>
                <dd>
                  <a href={telHref(site.phone)}>{site.phone}</a>
                </dd>
              </>
            )}
            {contact?.hours && (
              <>
                <dt>{t.hours}</dt>
                <dd>{contact.hours}</dd>
              </>
            )}
            {site.email && (
              <>
                <dt>{t.email}</dt>
                <dd>
                  <a href={`mailto:${site.email}`}>{site.email}</a>
                </dd>
              </>
            )}
            {site.address && (
              <>
                <dt>{t.address}</dt>
                <dd>{site.address}</dd>
              </>
            )}
            {site.postcode && (
              <>
                <dt>{t.postcode}</dt>
                <dd>{site.postcode}</dd>
              </>
            )}
          </dl>
          {contact?.mapImage && (
            <figure className="contact-page__map">
              <img src={contact.mapImage} alt={contact.mapAlt} width={720} height={420} loading="lazy" />
              <figcaption>{t.mapCaption}</figcaption>
            </figure>
          )}
        </div>
      )}
      {directions.length > 0 && (
        <section aria-labelledby="contact-directions">
          <h2 id="contact-directions">{t.directions}</h2>
          <ul>
            {directions.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </section>
      )}
      {departments.length > 0 && (
        <section aria-labelledby="contact-departments">
          <h2 id="contact-departments">{t.departments}</h2>
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
          <h2 id="contact-media">{t.media}</h2>
          <DepartmentCard department={contact.media} />
        </section>
      )}
      <p>
        {hasChannel(site?.whistleblowing) && (
          <>
            {t.reportBefore}
            <a href={pageHref(WHISTLEBLOWING_PATH)}>{t.whistleblowing}</a>
            {t.reportAfter}
          </>
        )}
        {cooperation && (
          <>
            {t.cooperationBefore}
            <a href={pageHref(cooperation.url)}>{cooperation.name}</a>
            {t.cooperationAfter}
          </>
        )}
      </p>
    </section>
  );
}
