import { Breadcrumb } from '../../components/breadcrumb';
import { Loading } from '../../components/loading';
import { WhistleblowingChannels, hasChannel } from '../../components/whistleblowing';
import type { ContentPageProps } from '../../features/articles';
import { findByUrl, useGetCategoriesQuery, type Category } from '../../features/categories';
import { useGetSiteQuery, type Site } from '../../features/site';
import { locale } from '../../lib/locale';
import { pageHref } from '../../lib/page-href';

/** 清正廉洁, where the office's news is listed (linked only when the CMS has it). */
const INTEGRITY = '/party-construction/clean-honest';

interface NoticeProps {
  title: string;
  site: Site | undefined;
  /** 清正廉洁's category, when the CMS has it. */
  integrity: Category | undefined;
}

/** The page in Chinese (the site's own language). */
function ChineseNotice({ title, site, integrity }: NoticeProps) {
  const channel = site?.whistleblowing;
  const who = site?.companyName || '本单位';
  return (
    <>
      <header className="content-page__header">
        <h1>{title}</h1>
        <p className="lead">
          {who}纪检监察机构受理对本单位党组织、党员和管理人员违纪违法问题的检举控告，欢迎来电、来信、来访和网上反映。
        </p>
      </header>
      {hasChannel(channel) && (
        <section aria-labelledby="whistleblowing-channels">
          <h2 id="whistleblowing-channels">举报方式</h2>
          <WhistleblowingChannels channel={channel} />
        </section>
      )}
      <section aria-labelledby="whistleblowing-scope">
        <h2 id="whistleblowing-scope">受理范围</h2>
        <ul>
          <li>党组织、党员违反政治纪律、组织纪律、廉洁纪律、群众纪律、工作纪律和生活纪律的问题；</li>
          <li>管理人员贪污贿赂、滥用职权、玩忽职守、权力寻租、利益输送、徇私舞弊以及浪费国家资财等问题；</li>
          <li>招标采购、工程建设、运费结算、资产处置等环节中的违规问题；</li>
          <li>违反中央八项规定精神，以及形式主义、官僚主义问题。</li>
        </ul>
        <p>
          涉及诉讼、仲裁、行政复议等法定途径的事项，业务咨询和服务投诉，请按相应途径办理，或通过
          <a href={pageHref('/contact')}>联系我们</a>
          页面找到对应部门。
        </p>
      </section>
      <section aria-labelledby="whistleblowing-rules">
        <h2 id="whistleblowing-rules">举报须知</h2>
        <ul>
          <li>提倡实名举报。请写明被举报人的姓名、单位、职务和主要问题，并尽量提供具体线索和证明材料，便于核实。</li>
          <li>实名举报将在受理后告知受理情况，并按规定反馈办理结果。</li>
          <li>举报人及举报内容严格保密；对打击报复举报人的行为，一经查实严肃处理。</li>
          <li>举报应当实事求是；捏造事实、诬告陷害他人的，依规依纪依法追究责任。</li>
        </ul>
      </section>
      {integrity && (
        <p>
          廉洁教育、警示通报等工作动态见<a href={pageHref(INTEGRITY)}>{integrity.name}</a>栏目。
        </p>
      )}
    </>
  );
}

/** The page in English: the same channel and rules, as such a page says them in English. */
function EnglishNotice({ title, site, integrity }: NoticeProps) {
  const channel = site?.whistleblowing;
  const company = site?.companyName;
  return (
    <>
      <header className="content-page__header">
        <h1>{title}</h1>
        <p className="lead">
          {company ? `The discipline inspection and supervision office of ${company}` : 'Our discipline inspection and supervision office'}{' '}
          accepts reports and complaints about violations of discipline or the law by the company’s Party organisations, Party
          members and managers. You are welcome to report by telephone, by letter, in person or online.
        </p>
      </header>
      {hasChannel(channel) && (
        <section aria-labelledby="whistleblowing-channels">
          <h2 id="whistleblowing-channels">Reporting channels</h2>
          <WhistleblowingChannels channel={channel} />
        </section>
      )}
      <section aria-labelledby="whistleblowing-scope">
        <h2 id="whistleblowing-scope">What we handle</h2>
        <ul>
          <li>
            Violations by Party organisations or Party members of political discipline, organisational discipline, integrity
            discipline, discipline in dealing with the public, work discipline or discipline in personal life;
          </li>
          <li>
            Corruption and bribery, abuse of power, neglect of duty, rent-seeking, transfers of benefits, malpractice for personal
            gain, waste of state assets and similar misconduct by managers;
          </li>
          <li>Irregularities in tendering and procurement, construction projects, freight settlement, asset disposal and similar processes;</li>
          <li>Breaches of the spirit of the Central Committee’s Eight-point Regulations, and formalism and bureaucratism.</li>
        </ul>
        <p>
          Matters for which there are statutory channels, such as litigation, arbitration or administrative reconsideration, as
          well as business enquiries and service complaints, should be pursued through the appropriate channels; you can find the
          department concerned on the <a href={pageHref('/contact')}>Contact us</a> page.
        </p>
      </section>
      <section aria-labelledby="whistleblowing-rules">
        <h2 id="whistleblowing-rules">How to report</h2>
        <ul>
          <li>
            We encourage reports made under your real name. Please give the name, organisation and position of the person you are
            reporting and the main issue, and provide specific leads and supporting evidence wherever possible so that the report
            can be verified.
          </li>
          <li>
            If you report under your real name, you will be told once your report has been accepted, and the outcome will be
            communicated to you in accordance with the regulations.
          </li>
          <li>
            The identity of whistleblowers and the content of reports are kept strictly confidential; any retaliation against a
            whistleblower will be dealt with severely once established.
          </li>
          <li>
            Reports must be truthful; anyone who fabricates facts or makes false accusations against others will be held to
            account under Party rules, discipline and the law.
          </li>
        </ul>
      </section>
      {integrity && (
        <p>
          News of integrity education, warnings and other work can be found under <a href={pageHref(INTEGRITY)}>{integrity.name}</a>.
        </p>
      )}
    </>
  );
}

/**
 * 信访举报: the discipline inspection office's channel (`[site.whistleblowing]`) with what it takes
 * and how a report is handled, in the words state-owned enterprises' portals use. The router
 * answers 404 here when the site has no channel.
 */
export default function WhistleblowingPage({ title, breadcrumb }: ContentPageProps) {
  const { data: site, isLoading } = useGetSiteQuery();
  const { data: tree = [] } = useGetCategoriesQuery();
  if (isLoading) return <Loading />;
  const integrity = findByUrl(tree, INTEGRITY);
  const Notice = locale() === 'en' ? EnglishNotice : ChineseNotice;
  return (
    <article className="content-page whistleblowing-page">
      <Breadcrumb items={breadcrumb} />
      <Notice title={title} site={site} integrity={integrity} />
    </article>
  );
}
