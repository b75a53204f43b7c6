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

/** The notice in Chinese (the site's own language). */
function ChineseNotice({ title, site }: StatementProps) {
  const owner = site?.companyName || '本网站的运营单位';
  const filed = site && (site.icpNumber || site.policeFilingNumber);
  return (
    <>
      <header className="content-page__header">
        <h1>{title}</h1>
        <p className="lead">访问和使用本网站，即表示您了解并同意以下声明。</p>
      </header>

      <section aria-labelledby="legal-copyright">
        <h2 id="legal-copyright">版权</h2>
        <p>
          本网站发布的文字、图片、音频、视频、图表和标识等内容，除注明来源者外，著作权归{owner}所有，受《中华人民共和国著作权法》等法律保护。
          未经书面许可，任何单位和个人不得复制、转载、摘编或以其他方式使用；经许可使用的，应在许可范围内使用，并注明来源。
          为报道新闻、教学或研究等合理使用的，应注明来源，且不得歪曲、篡改原意。
        </p>
        {site?.copyright && <p>{site.copyright}</p>}
      </section>

      <section aria-labelledby="legal-reprint">
        <h2 id="legal-reprint">转载内容</h2>
        <p>
          本网站注明来源的转载内容，著作权归原作者或原发布单位所有；转载是为了传递更多信息，不代表本网站赞同其观点。
          著作权人对转载有异议的，请与我们联系，我们将及时处理。
        </p>
      </section>

      <section aria-labelledby="legal-information">
        <h2 id="legal-information">信息的准确性</h2>
        <p>
          本网站力求所发布的信息准确、及时，但不对其完整性和适用性作出保证。班列开行、运价、通关时效等业务信息仅供参考，
          以双方签订的合同和正式发布的通知为准。
        </p>
      </section>

      <section aria-labelledby="legal-links">
        <h2 id="legal-links">外部链接</h2>
        <p>本网站提供的外部链接仅为方便访客，所链接网站的内容和服务由其运营者负责，与本网站无关。</p>
      </section>

      {filed && (
        <section aria-labelledby="legal-filings">
          <h2 id="legal-filings">网站备案</h2>
          <ul>
            {site.icpNumber && <li>ICP 备案号：{site.icpNumber}</li>}
            {site.policeFilingNumber && <li>公安机关备案号：{site.policeFilingNumber}</li>}
          </ul>
        </section>
      )}

      <section aria-labelledby="legal-law">
        <h2 id="legal-law">适用法律</h2>
        <p>本声明的订立、解释和争议的解决，适用中华人民共和国法律（不含港澳台地区法律）。</p>
      </section>

      <section aria-labelledby="legal-contact">
        <h2 id="legal-contact">联系我们</h2>
        <p>对本声明有任何疑问，或发现本网站的内容侵犯了您的合法权益，请联系{owner}：</p>
        <SiteContacts site={site} />
        <p>
          个人信息的处理请见<a href={pageHref('/privacy')}>隐私政策</a>，更多联系方式请见<a href={pageHref('/contact')}>联系我们</a>。
        </p>
      </section>
    </>
  );
}

/** The notice in English: the same terms, as an English legal notice states them. */
function EnglishNotice({ title, site }: StatementProps) {
  const owner = site?.companyName || 'the operator of this website';
  const filed = site && (site.icpNumber || site.policeFilingNumber);
  return (
    <>
      <header className="content-page__header">
        <h1>{title}</h1>
        <p className="lead">By accessing and using this website, you acknowledge and agree to the following terms.</p>
      </header>

      <section aria-labelledby="legal-copyright">
        <h2 id="legal-copyright">Copyright</h2>
        <p>
          Unless another source is credited, copyright in the text, images, audio, video, charts, logos and other content
          published on this website belongs to {owner} and is protected by the Copyright Law of the People’s Republic of China and
          other laws. No organisation or individual may reproduce, republish, excerpt or otherwise use this content without
          written permission; content used with permission must be used within the scope of that permission, with its source
          credited. Fair use for news reporting, teaching, research or similar purposes must credit the source and must not
          distort or alter the original meaning.
        </p>
        {site?.copyright && <p>{site.copyright}</p>}
      </section>

      <section aria-labelledby="legal-reprint">
        <h2 id="legal-reprint">Republished content</h2>
        <p>
          Copyright in content that this website republishes with its source credited belongs to the original author or
          publisher. Such content is republished to share information more widely and does not mean that this website endorses
          the views it expresses. If you hold the copyright and object to its republication, please contact us and we will deal
          with the matter promptly.
        </p>
      </section>

      <section aria-labelledby="legal-information">
        <h2 id="legal-information">Accuracy of information</h2>
        <p>
          This website strives to publish accurate and up-to-date information, but makes no warranty as to its completeness or
          fitness for any particular purpose. Business information such as train services, freight rates and customs clearance
          times is for reference only; the contract signed by the parties and officially published notices prevail.
        </p>
      </section>

      <section aria-labelledby="legal-links">
        <h2 id="legal-links">External links</h2>
        <p>
          Links to external websites are provided solely for visitors’ convenience. The content and services of linked websites
          are the responsibility of their operators, and this website accepts no responsibility for them.
        </p>
      </section>

      {filed && (
        <section aria-labelledby="legal-filings">
          <h2 id="legal-filings">Website registration</h2>
          <ul>
            {/* The numbers themselves are written in Chinese by law: marked so. */}
            {site.icpNumber && (
              <li>
                ICP registration number: <span lang="zh-CN">{site.icpNumber}</span>
              </li>
            )}
            {site.policeFilingNumber && (
              <li>
                Public security filing number: <span lang="zh-CN">{site.policeFilingNumber}</span>
              </li>
            )}
          </ul>
        </section>
      )}

      <section aria-labelledby="legal-law">
        <h2 id="legal-law">Governing law</h2>
        <p>
          The making and interpretation of this notice, and the resolution of any dispute arising from it, are governed by the
          laws of the People’s Republic of China (excluding the laws of the Hong Kong and Macao Special Administrative Regions and
          Taiwan).
        </p>
      </section>

      <section aria-labelledby="legal-contact">
        <h2 id="legal-contact">Contact us</h2>
        <p>
          If you have any questions about this notice, or find that content on this website infringes your lawful rights and
          interests, please contact {owner}:
        </p>
        <SiteContacts site={site} />
        <p>
          For how personal information is handled, see the <a href={pageHref('/privacy')}>Privacy policy</a>; for other ways to
          reach us, see <a href={pageHref('/contact')}>Contact us</a>.
        </p>
      </section>
    </>
  );
}

/**
 * 法律声明: the terms every such portal states (copyright of what it publishes, reprinted content,
 * the standing of its business information, external links, the site's filings, the law that
 * applies), in the name of the company the gateway's config names (`[site] company_name`), with
 * its filings and copyright line as `[site]` sets them; nothing of the demo company otherwise.
 */
export default function LegalPage({ title, breadcrumb }: ContentPageProps) {
  const { data: site } = useGetSiteQuery();
  const Notice = locale() === 'en' ? EnglishNotice : ChineseNotice;
  return (
    <article className="content-page legal-page">
      <Breadcrumb items={breadcrumb} />
      <Notice title={title} site={site} />
    </article>
  );
}
