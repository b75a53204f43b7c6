import { Breadcrumb } from '../../components/breadcrumb';
import type { ContentPageProps } from '../../features/articles';
import { useGetSiteQuery, type Site } from '../../features/site';
import { locale } from '../../lib/locale';
import { pageHref } from '../../lib/page-href';
import { SiteContacts } from './site-contacts';

interface StatementProps {
  title: string;
  site: Site | undefined;
}

/** The policy in Chinese (the site's own language). */
function ChinesePolicy({ title, site }: StatementProps) {
  const who = site?.companyName || '本网站的运营单位';
  return (
    <>
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
    </>
  );
}

/** The policy in English: the same facts, as an English privacy policy states them. */
function EnglishPolicy({ title, site }: StatementProps) {
  const company = site?.companyName;
  return (
    <>
      <header className="content-page__header">
        <h1>{title}</h1>
        <p className="lead">
          {company || 'The operator of this website'} is committed to protecting the personal information of every visitor. This
          policy explains what information this website records when you visit it, why, how long it is kept, and how you can
          exercise your rights. You do not need to register or log in to browse any of the public content on this website.
        </p>
      </header>

      <section aria-labelledby="privacy-recorded">
        <h2 id="privacy-recorded">Information this website records</h2>
        <p>
          When you open a page, image or attachment, the website’s server records one line in its access log for each request,
          containing:
        </p>
        <ul>
          <li>the time of the request and the address requested (including any keywords you enter in the site search);</li>
          <li>
            your network address (IP address) and, if you connect through a proxy server, the addresses the proxy forwards;
          </li>
          <li>the type and version your browser reports for itself (User-Agent);</li>
          <li>the outcome of the request, the amount of data returned and the time taken.</li>
        </ul>
        <p>
          This website does not collect your name, telephone number, identity document number, location or similar information,
          sets no cookies to identify or track visitors, and uses no third-party analytics, advertising, map or social sharing
          code: pages load content from this website only.
        </p>
      </section>

      <section aria-labelledby="privacy-use">
        <h2 id="privacy-use">How the information is used and kept</h2>
        <ul>
          <li>
            Access logs are used only to keep the website secure and running reliably, to investigate faults and to count visits.
            They are not used to identify you, and are neither sold nor provided to any third party, except where laws or
            administrative regulations provide otherwise.
          </li>
          <li>
            Access logs are retained for no less than six months, as required by the Cybersecurity Law of the People’s Republic
            of China.
          </li>
          <li>
            To stop any single visitor from overloading the server, the website temporarily counts requests by network address;
            these counts are held only in the server’s memory and are not written to the logs.
          </li>
        </ul>
      </section>

      <section aria-labelledby="privacy-browser">
        <h2 id="privacy-browser">Settings saved in your browser</h2>
        <p>
          The text size, zoom, high contrast and other settings you choose in Accessibility mode are saved in your browser’s
          local storage. They are used only on your device and are never sent to the server. To delete them, select “Reset” in
          the Accessibility mode panel, or clear this website’s data in your browser.
        </p>
      </section>

      <section aria-labelledby="privacy-links">
        <h2 id="privacy-links">Other websites</h2>
        <p>
          Links to other websites, such as those listed under “Links”, take you to those websites; how they handle your personal
          information is governed by the rules they publish.
        </p>
      </section>

      <section aria-labelledby="privacy-rights">
        <h2 id="privacy-rights">Your rights</h2>
        <p>
          Under the Personal Information Protection Law of the People’s Republic of China, you have the right to access, copy,
          correct and delete your personal information, and to comment on how it is processed. For any questions or requests,
          please contact {company || 'the operator of this website'}:
        </p>
        <SiteContacts site={site} />
        <p>
          We will reply promptly. For other ways to reach us, see <a href={pageHref('/contact')}>Contact us</a>; for the other
          terms that apply to this website, see the <a href={pageHref('/legal')}>Legal notice</a>. Any changes to this policy
          will be published on this page.
        </p>
      </section>
    </>
  );
}

/**
 * 隐私政策: what this portal itself records of a visitor and keeps in their browser — written from
 * what the gateway and the app do (the gateway's access line, `crates/web/src/access_log.rs`; the
 * per-address limits, kept in memory; `lib/storage.ts`, the only thing the app stores; no cookie;
 * a Content-Security-Policy that loads nothing from another site) — and whom to ask, by the site's
 * own e-mail and telephone from `/site`, each shown only when the gateway's config sets it.
 */
export default function PrivacyPage({ title, breadcrumb }: ContentPageProps) {
  const { data: site } = useGetSiteQuery();
  const Policy = locale() === 'en' ? EnglishPolicy : ChinesePolicy;
  return (
    <article className="content-page privacy-page">
      <Breadcrumb items={breadcrumb} />
      <Policy title={title} site={site} />
    </article>
  );
}
