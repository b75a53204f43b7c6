import type { ReactNode } from 'react';

import { Breadcrumb } from '../../components/breadcrumb';
import type { ContentPageProps } from '../../features/articles';
import { ZOOMS } from '../../features/reading';
import { useGetSiteQuery, type Site } from '../../features/site';
import { locale, messages } from '../../lib/locale';
import { pageHref } from '../../lib/page-href';
import { SiteContacts } from './site-contacts';

const text = messages({
  zh: {
    standards: [
      'GB/T 37668—2019《信息技术 互联网内容无障碍可访问性技术要求与测试方法》',
      '工业和信息化部《互联网网站适老化通用设计规范》',
      'W3C《Web 内容无障碍指南》（WCAG）2.1 AA 级',
    ],
  },
  en: {
    standards: [
      'GB/T 37668—2019 Information Technology — Requirements and Testing Methods for Accessibility of Web Content',
      'Ministry of Industry and Information Technology: General Design Specification for Age-Friendly Websites',
      'W3C Web Content Accessibility Guidelines (WCAG) 2.1, Level AA',
    ],
  },
});

interface StatementProps {
  title: string;
  site: Site | undefined;
  maxZoom: number;
  standards: ReactNode;
}

/** The statement in Chinese (the site's own language). */
function ChineseStatement({ title, site, maxZoom, standards }: StatementProps) {
  const who = site?.companyName || '我们';
  return (
    <>
      <header className="content-page__header">
        <h1>{title}</h1>
        <p className="lead">
          {who}希望每一位访客，包括老年人和视力、听力、肢体不便的朋友，都能方便地使用本网站。本网站提供“关怀版”辅助功能，
          并按照下列标准设计和检查。
        </p>
      </header>

      <section aria-labelledby="a11y-care">
        <h2 id="a11y-care">关怀版提供的功能</h2>
        <p>在任意页面顶部（手机上同样在页面顶部）点击“关怀版”按钮，即可打开以下功能；再次点击或按 Esc 键关闭。</p>
        <ul>
          <li>文字大小：标准、大、特大三档，特大为标准的 1.5 倍；标题和栏目名称自动换行，不会被截断。</li>
          <li>
            页面缩放：100%、125%、{maxZoom}% 三档，与文字大小叠加使用；页面随之重新排版，不需要左右拖动。
          </li>
          <li>高对比度：加深文字与背景的颜色对比，链接加下划线。</li>
          <li>加大行距：增大行与行、段与段之间的距离，便于阅读。</li>
          <li>大鼠标：使用更大、黑白分明的鼠标指针。</li>
          <li>十字线：在鼠标位置显示横竖两条辅助线，帮助对准所读的行。</li>
          <li>语音朗读：朗读当前页面的主要内容，再按一次停止。浏览器或系统装有中文语音时才会显示此按钮。</li>
          <li>重置：一键恢复全部默认设置。</li>
        </ul>
        <p>您的选择保存在当前浏览器中，下次访问时自动生效。</p>
      </section>

      <section aria-labelledby="a11y-keyboard">
        <h2 id="a11y-keyboard">键盘操作</h2>
        <ul>
          <li>按 Tab 键向后、Shift+Tab 键向前移动焦点，获得焦点的项目有明显的框线。</li>
          <li>进入页面后第一次按 Tab 键，会出现“跳到主要内容”链接，按回车可跳过页头直接阅读正文。</li>
          <li>回车键或空格键按下按钮；按 Esc 键关闭关怀版面板、下拉菜单和大图，焦点回到原来的按钮。</li>
          <li>在主菜单中可用方向键移动；首页新闻分类标签可用左右方向键切换；查看大图时可用左右方向键翻看。</li>
        </ul>
      </section>

      <section aria-labelledby="a11y-standards">
        <h2 id="a11y-standards">遵循的标准</h2>
        {standards}
        <p>
          本网站的图片配有文字说明，页面在手机和电脑上均可完整浏览；浏览器自带的放大功能和读屏软件也可正常使用。
          如个别栏目由内容发布者提供的图片、视频或附件缺少文字说明，欢迎告诉我们。
        </p>
      </section>

      <section aria-labelledby="a11y-contact">
        <h2 id="a11y-contact">问题反馈</h2>
        <p>如您在使用本网站时遇到困难，或需要以其他方式获取页面上的信息，请联系{who}：</p>
        <SiteContacts site={site} />
        <p>
          来信请说明所访问的页面和遇到的问题，我们会尽快答复。更多联系方式请见<a href={pageHref('/contact')}>联系我们</a>。
        </p>
      </section>
    </>
  );
}

/** The statement in English: the same facts, as an English accessibility statement gives them. */
function EnglishStatement({ title, site, maxZoom, standards }: StatementProps) {
  const company = site?.companyName;
  return (
    <>
      <header className="content-page__header">
        <h1>{title}</h1>
        <p className="lead">
          {company ? `${company} wants` : 'We want'} every visitor, including older people and people with visual, hearing or
          physical impairments, to be able to use this website with ease. The website offers an Accessibility mode with assistive
          features, and is designed and checked against the standards listed below.
        </p>
      </header>

      <section aria-labelledby="a11y-care">
        <h2 id="a11y-care">What Accessibility mode offers</h2>
        <p>
          Select the “Accessibility mode” button at the top of any page (it is also at the top of the page on mobile phones) to
          open the following features; select it again or press Esc to close them.
        </p>
        <ul>
          <li>
            Text size: three settings, Standard, Large and Extra large, the largest being 1.5 times the standard size. Headings and
            section names wrap onto new lines rather than being cut off.
          </li>
          <li>
            Page zoom: three levels, 100%, 125% and {maxZoom}%, which can be combined with the text size. The page is laid out again to
            fit, so there is no need to scroll sideways.
          </li>
          <li>High contrast: strengthens the colour contrast between text and background, and underlines links.</li>
          <li>Wider line spacing: increases the space between lines and between paragraphs for easier reading.</li>
          <li>Large cursor: uses a larger black-and-white mouse pointer.</li>
          <li>
            Crosshair: shows a horizontal and a vertical guide line at the mouse position to help you keep your place on the line
            you are reading.
          </li>
          <li>
            Read aloud: reads out the main content of the current page; select it again to stop. This button appears only when
            your browser or operating system has an English voice installed.
          </li>
          <li>Reset: restores all the default settings in one step.</li>
        </ul>
        <p>Your choices are saved in the browser you are using and apply automatically the next time you visit.</p>
      </section>

      <section aria-labelledby="a11y-keyboard">
        <h2 id="a11y-keyboard">Using the keyboard</h2>
        <ul>
          <li>Press Tab to move the focus forwards and Shift+Tab to move it back; the item in focus is clearly outlined.</li>
          <li>
            The first time you press Tab on a page, a “Skip to main content” link appears: press Enter to skip the page header
            and go straight to the main content.
          </li>
          <li>
            Press Enter or Space to activate a button. Press Esc to close the Accessibility mode panel, drop-down menus and
            enlarged images; the focus returns to the button you started from.
          </li>
          <li>
            Use the arrow keys to move around the main menu; use the left and right arrow keys to switch between the news
            category tabs on the home page and to move between enlarged images.
          </li>
        </ul>
      </section>

      <section aria-labelledby="a11y-standards">
        <h2 id="a11y-standards">Standards we follow</h2>
        {standards}
        <p>
          Images on this website have text descriptions, and every page can be viewed in full on mobile phones and computers;
          your browser’s own zoom and screen readers also work as normal. If an image, video or attachment supplied by a content
          publisher in any section lacks a text description, please let us know.
        </p>
      </section>

      <section aria-labelledby="a11y-contact">
        <h2 id="a11y-contact">Feedback</h2>
        <p>
          If you have difficulty using this website, or need the information on a page in another format, please contact{' '}
          {company || 'us'}:
        </p>
        <SiteContacts site={site} />
        <p>
          Please tell us which page you were visiting and what problem you encountered, and we will reply as soon as possible. For
          other ways to reach us, see <a href={pageHref('/contact')}>Contact us</a>.
        </p>
      </section>
    </>
  );
}

/**
 * 无障碍声明: what the 关怀版 offers, how to use the site by keyboard, the standards it follows, and
 * how to report a problem — by the site's own e-mail and telephone from `/site`, each shown only
 * when the gateway's config sets it.
 */
export default function AccessibilityPage({ title, breadcrumb }: ContentPageProps) {
  const { data: site } = useGetSiteQuery();
  const maxZoom = Math.max(...ZOOMS);
  const standards = (
    <ul>
      {text().standards.map((s) => (
        <li key={s}>{s}</li>
      ))}
    </ul>
  );
  const Statement = locale() === 'en' ? EnglishStatement : ChineseStatement;
  return (
    <article className="content-page accessibility-page">
      <Breadcrumb items={breadcrumb} />
      <Statement title={title} site={site} maxZoom={maxZoom} standards={standards} />
    </article>
  );
}
