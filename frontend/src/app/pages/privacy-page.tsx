import { Breadcrumb } from '../../components/breadcrumb';
import type { ContentPageProps } from '../../features/articles';
import { useGetSiteQuery } from '../../features/site';
import { pageHref } from '../../lib/page-href';
import { SiteContacts } from './site-contacts';

/**
 * 隐私政策: what this portal itself records of a visitor and keeps in their browser — written from
 * what the gateway and the app do (the gateway's access line, `crates/web/src/access_log.rs`; the
 * per-address limits, kept in memory; `lib/storage.ts`, the only thing the app stores; no cookie;
 * a Content-Security-Policy that loads nothing from another site) — and whom to ask, by the site's
 * own e-mail and telephone from `/site`, each shown only when the gateway's config sets it.
 */
export default function PrivacyPage({ title, breadcrumb }: ContentPageProps) {
  const { data: site } = useGetSiteQuery();
  const who = site?.companyName || '本网站的运营单位';
  return (
    <article className="content-page privacy-page">
      <Breadcrumb items={breadcrumb} />
      <header className="content-page__header">
        <h1>{title}</h1>
        <p className="lead">
          {who}重视每一位访客的个人信息保护。本政策说明您访问本网站时，本网站记录哪些信息、为何记录、保存多久，
          以及您如何行使自己的权利。浏览本网站的全部公开内容无需注册或登录。
        </p>
      </header>

      <section aria-labelledby="privacy-recorded">
        <h2 id="privacy-recorded">本网站记录的信息</h2>
        <p>您打开页面、图片或附件时，网站服务器为每一次访问记录一行访问日志，内容为：</p>
        <ul>
          <li>访问的时间，以及所访问的地址（包括您在站内搜索中输入的关键词）；</li>
          <li>您的网络地址（IP 地址），经代理服务器访问时还包括代理转发的地址；</li>
          <li>浏览器自报的类型和版本（User-Agent）；</li>
          <li>服务器的处理结果、返回的数据量和所用时间。</li>
        </ul>
        <p>
          本网站不收集您的姓名、电话、证件号码、位置等信息，不设置用于识别或跟踪访客的 Cookie，
          也不使用第三方统计、广告、地图或社交分享代码：页面只从本网站加载内容。
        </p>
      </section>

      <section aria-labelledby="privacy-use">
        <h2 id="privacy-use">信息的用途和保存</h2>
        <ul>
          <li>访问日志仅用于保障网站安全稳定运行、排查故障和统计访问量，不用于识别您的身份，不出售，也不向第三方提供，法律、行政法规另有规定的除外。</li>
          <li>访问日志依照《中华人民共和国网络安全法》的规定留存不少于六个月。</li>
          <li>为防止个别访问者过度占用服务器，网站按网络地址临时计算访问次数；这些计数只保存在服务器内存中，不写入日志。</li>
        </ul>
      </section>

      <section aria-labelledby="privacy-browser">
        <h2 id="privacy-browser">保存在您浏览器中的设置</h2>
        <p>
          您在“关怀版”中选择的文字大小、页面缩放、高对比度等设置，保存在您所用浏览器的本地存储中，只在您的设备上使用，
          不发送给服务器。点击关怀版面板中的“重置”，或清除浏览器的网站数据，即可删除这些设置。
        </p>
      </section>

      <section aria-labelledby="privacy-links">
        <h2 id="privacy-links">其他网站</h2>
        <p>
          友情链接等指向其他网站的链接会打开对方的网站，对方如何处理您的个人信息，以其公布的规则为准。
        </p>
      </section>

      <section aria-labelledby="privacy-rights">
        <h2 id="privacy-rights">您的权利</h2>
        <p>
          依照《中华人民共和国个人信息保护法》，您有权查阅、复制、更正和删除您的个人信息，并可对个人信息的处理提出意见。
          如有疑问或请求，请联系{who}：
        </p>
        <SiteContacts site={site} />
        <p>
          我们将及时答复。更多联系方式请见<a href={pageHref('/contact')}>联系我们</a>，网站使用的其他规则请见
          <a href={pageHref('/legal')}>法律声明</a>。本政策如有修改，将在本页面公布。
        </p>
      </section>
    </article>
  );
}
