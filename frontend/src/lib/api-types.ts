// Generated from the gateway's model (crates/core/src/model) by the test
// `model::shapes::the_apps_types_are_generated_from_the_model`; do not edit.
// Regenerate: UPDATE_API_TYPES=1 cargo test -p portal-core --lib model::shapes

export type Id = number | string;

export type Category = { id: Id, 
/**
 * 0 at the top level, whatever the CMS calls its root.
 */
parentId: Id, name: string, 
/**
 * The portal route it belongs to (`/news_center/notice`); empty when it has none.
 */
url: string, sort: number, 
/**
 * The page the app shows: `group`, `page` or `list`.
 */
type?: string, description?: string, hidden?: boolean, icon?: string, subCategory: Array<Category>, };

export type CategoryTree = { content: Array<Category>, };

export type Attachment = { name: string, url: string, size?: number, };

export type Link = { id: Id, title: string, };

export type Article = { id: Id, categoryId: Id, title: string, summary?: string, cover?: string, author?: string, 
/**
 * 责任编辑: the editor who answers for the article (shown on its page, under its title).
 */
editor?: string, source?: string, 
/**
 * `yyyy-MM-dd HH:mm:ss`, China time.
 */
publishTime?: string, views?: number, 
/**
 * The HTML body; only on a detail, always sanitised (by the CMS adapter).
 */
content?: string, attachments?: Array<Attachment>, 
/**
 * A video the page plays (the promotional video), from the CMS file store.
 */
video?: string, 
/**
 * The video's captions (WebVTT), from the CMS file store.
 */
captions?: string, 
/**
 * 头条: the CMS marks this article as the lead story (the home page shows the newest one).
 */
lead?: boolean, 
/**
 * The newer neighbour in its category (a detail only; `null` for the newest).
 */
prev?: Link, 
/**
 * The older neighbour in its category (a detail only; `null` for the oldest).
 */
next?: Link, };

export type ArticlePage = { content: Array<Article>, totalElements: number, totalPages: number, page: number, size: number, };

export type Marked = { text: string, match: boolean, };

export type Highlight = { title: Array<Marked>, fragment?: Array<Marked>, };

export type SearchHit = { highlight?: Highlight, id: Id, categoryId: Id, title: string, summary?: string, cover?: string, author?: string, 
/**
 * 责任编辑: the editor who answers for the article (shown on its page, under its title).
 */
editor?: string, source?: string, 
/**
 * `yyyy-MM-dd HH:mm:ss`, China time.
 */
publishTime?: string, views?: number, 
/**
 * The HTML body; only on a detail, always sanitised (by the CMS adapter).
 */
content?: string, attachments?: Array<Attachment>, 
/**
 * A video the page plays (the promotional video), from the CMS file store.
 */
video?: string, 
/**
 * The video's captions (WebVTT), from the CMS file store.
 */
captions?: string, 
/**
 * 头条: the CMS marks this article as the lead story (the home page shows the newest one).
 */
lead?: boolean, 
/**
 * The newer neighbour in its category (a detail only; `null` for the newest).
 */
prev?: Link, 
/**
 * The older neighbour in its category (a detail only; `null` for the oldest).
 */
next?: Link, };

export type SectionCount = { id: Id, name: string, count: number, };

export type SearchSource = "index" | "cms";

export type SearchPage = { content: Array<SearchHit>, totalElements: number, totalPages: number, page: number, size: number, source: SearchSource, sections?: Array<SectionCount>, 
/**
 * The index is still being built (after a start, without `search.dir`): these are the hits
 * among what it holds so far, which the page says. Absent once it is whole.
 */
building?: boolean, };

export type Mourning = boolean | Array<string>;

export type Whistleblowing = { phone: string, email: string, address: string, 
/**
 * When the phone is answered (`工作日 9:00—17:00`).
 */
hours: string, 
/**
 * The national online channel, e.g. the CCDI's 12388 site (an http or https URL).
 */
website: string, };

export type Figure = { value: string, label: string, };

export type Partner = { name: string, url?: string, };

export type ServiceIcon = "route" | "track" | "booking" | "timetable" | "customs" | "invoice" | "service" | "warehouse";

export type Service = { name: string, 
/**
 * What the app draws beside it (the config refuses an icon it does not know).
 */
icon: ServiceIcon, url: string, description: string, };

export type Wechat = { 
/**
 * The account's name (`云川陆港`); the block shows only when it is set.
 */
name: string, 
/**
 * Its WeChat ID, printed under the code for visitors who search rather than scan.
 */
account: string, 
/**
 * The QR code image WeChat gives the account, served from this site (a path beginning with
 * `/`, e.g. one of the CMS's files: the pages' CSP allows images from the site itself only).
 */
qrImage: string, };

export type Department = { name: string, 
/**
 * What it answers for (`班列订舱、运价与时刻`).
 */
duties: string, phone: string, email: string, };

export type Contact = { 
/**
 * When the switchboard and the hotline answer (`工作日 8:30—17:30`).
 */
hours: string, 
/**
 * Departments a visitor may want (业务咨询, 招标采购, 人力资源…), in order.
 */
departments: Array<Department>, 
/**
 * 新闻媒体联系: the press office (a department entry; none, no line).
 */
media?: Department, 
/**
 * A map of where the company is, served from this site (a path beginning with `/`).
 */
mapImage: string, 
/**
 * What the map shows, for visitors who cannot see it (required with a map).
 */
mapAlt: string, 
/**
 * 交通指引: how to get there, one line each (metro, bus, by car).
 */
directions: Array<string>, };

export type Language = { code: 'zh' | 'en', name: string, };

export type Site = { search: boolean, 
/**
 * The language these facts are in: `zh`, the site's own, or one of `[languages]` (`en`).
 */
lang: 'zh' | 'en', 
/**
 * Every language the portal is in, the site's own first; none when it has only its own
 * (the app shows no language switch then).
 */
languages: Array<Language>, companyName: string, shortName: string, loginUrl: string, address: string, phone: string, email: string, postcode: string, icpNumber: string, icpUrl: string, copyright: string, 
/**
 * Language of the pagination labels: `en` (the spec's default) or `zh-CN` (the config
 * refuses any other).
 */
paginationLocale: 'en' | 'zh-CN', 
/**
 * Where visitors reach the portal (`https://www.example.com`): the absolute links of the
 * pages (canonical, share), the sitemap and the feeds. Never taken from a request's `Host`, which a
 * client could set and a cached page would keep. Empty (the default): pages link by paths, and
 * there is no sitemap or feed (both need absolute addresses).
 */
publicUrl: string, 
/**
 * 公安备案: the public-security filing number shown in the footer with its emblem (hidden when
 * empty), and where it links (the national filing site's record page).
 */
policeFilingNumber: string, policeFilingUrl: string, 
/**
 * 哀悼模式: the whole site in grey, always (`true`) or on listed days.
 */
mourning: Mourning, 
/**
 * 咨询热线: the number a business page's call to action gives (hidden when empty).
 */
hotline: string, 
/**
 * 在线订舱: where a business page's call to action sends a visitor to book (hidden when empty).
 */
bookingUrl: string, 
/**
 * 信访举报: how to reach the discipline inspection office, shown on 清正廉洁 (each line only
 * when set; the block only when one is).
 */
whistleblowing: Whistleblowing, 
/**
 * The home page's 数说 figures (value and what it counts), in order; none, no block.
 */
figures: Array<Figure>, 
/**
 * The home page's partners (name, and a link when given); none, no block.
 */
partners: Array<Partner>, 
/**
 * 客户服务: the company's own systems (班列查询, 货物追踪, 在线订舱…) and the portal's service
 * pages, in order: a band on the home page and the entries of 客户服务 in the menu, each
 * opening at its own address; none, neither.
 */
services: Array<Service>, 
/**
 * 友情链接: the footer's links to the regulator, the group and peers (name and URL); none, no
 * block.
 */
links: Array<Partner>, 
/**
 * 微信公众号: the footer's block with the account's QR code; none unless its name is set.
 */
wechat: Wechat, 
/**
 * 联系我们 beyond the footer's lines: departments, the press office, a map, how to get there.
 */
contact: Contact, };
