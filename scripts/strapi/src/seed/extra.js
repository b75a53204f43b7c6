'use strict';

// Articles that exist only in the Strapi test CMS (all fictional).
//
// ARCHIVE: ten older items of 公司要闻 (reference category 21), so that the list
// in Strapi is longer than reference-cms's own (the gateway's Strapi tests count
// the seed's items and these ten).
//
// HOSTILE: one notice whose Markdown body carries script, event-handler,
// javascript: and iframe payloads (and a summary with a literal "<script>"
// that must be escaped, not executed).

const ARCHIVE_CATEGORY = 21;

const ARCHIVE = [
  {
    title: '云川陆港一季度集装箱吞吐量同比增长18%',
    publishTime: '2026-05-12 10:00:00',
    author: '宣传部 林晓舟',
    views: 1163,
    cover: 'covers/port.svg',
    summary: '一季度云川国际陆港完成集装箱吞吐量23.6万标箱，同比增长18%，铁路集装箱发送量和回程重箱量均创同期新高。',
    content:
      '<p>一季度，云川国际陆港完成集装箱吞吐量23.6万标箱，同比增长18%。其中铁路集装箱发送量11.2万标箱，回程重箱量4.1万标箱，均创同期新高。</p>' +
      '<h2>主要指标</h2><ul><li>中欧、中亚班列开行258列，同比增长12%；</li><li>铁海联运发送量3.4万标箱，同比增长26%；</li><li>集卡平台进场预约率提升至91%。</li></ul>' +
      '<p>集团运营管理部表示，二季度将重点保障光伏组件、新能源汽车等重点货源的运力需求，继续压缩场站平均作业时间。</p>',
  },
  {
    title: '集团启动场站新能源正面吊更新项目',
    publishTime: '2026-04-20 15:30:00',
    author: '宣传部 韩松',
    views: 742,
    summary: '集团投资4800万元更新16台新能源正面吊，项目完成后场站作业机械电动化比例将提升至75%。',
    content:
      '<p>4月20日，集团场站新能源正面吊更新项目正式启动。项目计划投资4800万元，分两批更新16台新能源正面吊，并同步建设6座大功率充电桩。</p>' +
      '<p>项目完成后，场站作业机械电动化比例将由60%提升至75%，预计每年减少柴油消耗约1100吨。</p>',
  },
  {
    title: '“云川—塔什干”班列实现每周三列常态化开行',
    publishTime: '2026-03-26 09:15:00',
    author: '宣传部 林晓舟',
    views: 1519,
    cover: 'covers/train.svg',
    summary: '自3月起，“云川—塔什干”中亚班列由每周一列加密至每周三列，全程运行时间稳定在9天左右。',
    content:
      '<p>自3月起，“云川—塔什干”中亚班列由每周一列加密至每周三列，全程运行时间稳定在9天左右。去程以工程机械、日用消费品为主，回程组织棉纱、干果等货源。</p>' +
      '<p>集团国际业务部负责人介绍，线路加密后，沿线客户的平均订舱等待时间由7天缩短至3天。</p>',
  },
  {
    title: '集团召开2026年度工作会议',
    publishTime: '2026-02-27 09:00:00',
    author: '集团办公室 陈露',
    views: 1032,
    summary: '会议总结了2025年工作，部署了2026年通道建设、园区招商、数字化转型和安全生产等重点任务。',
    content:
      '<p>2月27日，集团召开2026年度工作会议，总结2025年工作，部署2026年重点任务。</p>' +
      '<h2>2026年重点任务</h2><ol><li>加密中欧、中亚班列，力争全年开行1050列；</li><li>推进融合创新产业园二期招商；</li><li>完成场站作业系统数字化升级；</li><li>持续开展安全生产专项整治。</li></ol>' +
      '<p>会议还表彰了2025年度先进集体和先进个人。</p>',
  },
  {
    title: '陆港铁路专用线扩能改造工程完工',
    publishTime: '2026-01-15 14:20:00',
    author: '宣传部 韩松',
    views: 888,
    summary: '铁路专用线扩能改造工程新增到发线2条、装卸线1条，陆港日均接发列车能力由18列提升至26列。',
    content:
      '<p>1月15日，云川国际陆港铁路专用线扩能改造工程通过竣工验收。工程新增到发线2条、装卸线1条，改造道岔14组。</p>' +
      '<p>改造完成后，陆港日均接发列车能力由18列提升至26列，可满足整列班列的直接接发和装卸作业需求。</p>',
  },
  {
    title: '集团获评年度全省物流行业诚信示范企业',
    publishTime: '2025-12-18 16:00:00',
    author: '集团办公室 陈露',
    views: 615,
    summary: '集团在全省物流行业信用评价中获评年度诚信示范企业，这是集团连续第三年获得该称号。',
    content:
      '<p>近日，全省物流行业信用评价结果公布，集团获评年度诚信示范企业。这是集团连续第三年获得该称号。</p>' +
      '<p>集团将继续完善合同管理、客户投诉处理和供应商评价机制，以诚信经营提升服务质量。</p>',
  },
  {
    title: '跨境电商集货中心“双十一”单日处理包裹创新高',
    publishTime: '2025-11-13 11:30:00',
    author: '宣传部 林晓舟',
    views: 1744,
    cover: 'covers/warehouse.svg',
    summary: '“双十一”期间，跨境电商集货中心单日处理出口包裹58.3万件，创历史新高，包裹平均六小时完成集货上车。',
    content:
      '<p>“双十一”期间，跨境电商集货中心单日处理出口包裹58.3万件，创历史新高。中心实行24小时三班作业，包裹从入库到装车平均用时六小时。</p>' +
      '<p>活动期间共开行跨境电商专列9列，发往欧洲和中亚的包裹总量超过420万件。</p>',
  },
  {
    title: '海关监管作业场所智能卡口上线试运行',
    publishTime: '2025-09-10 10:40:00',
    author: '宣传部 韩松',
    views: 803,
    summary: '陆港海关监管作业场所智能卡口上线试运行，集卡过卡时间由平均3分钟缩短至40秒。',
    content:
      '<p>9月10日，云川国际陆港海关监管作业场所智能卡口上线试运行。卡口配备车牌识别、箱号识别和电子地磅等设备，实现集卡“无感”通行。</p>' +
      '<p>试运行首周，集卡平均过卡时间由3分钟缩短至40秒，高峰时段排队长度减少一半以上。</p>',
  },
  {
    title: '集团与临江港签订铁水联运合作协议',
    publishTime: '2025-06-24 15:00:00',
    author: '集团办公室 陈露',
    views: 927,
    summary: '双方将共建铁水联运通道，开行陆港至临江港的集装箱班列，并推行铁水联运“一单制”服务。',
    content:
      '<p>6月24日，集团与临江港务公司签订铁水联运合作协议。双方将共建铁水联运通道，每周开行陆港至临江港的集装箱班列不少于五列。</p>' +
      '<p>根据协议，双方将统一运单和结算规则，推行铁水联运“一单制”服务，货主一次委托即可完成全程运输。</p>',
  },
  {
    title: '首趟“云川—罗兹”汽车零部件专列发车',
    publishTime: '2025-03-18 08:50:00',
    author: '宣传部 林晓舟',
    views: 1291,
    cover: 'covers/train.svg',
    summary: '满载汽车零部件的首趟“云川—罗兹”专列从云川国际陆港发车，预计14天后抵达波兰罗兹。',
    content:
      '<p>3月18日，满载50个标准集装箱汽车零部件的首趟“云川—罗兹”专列从云川国际陆港发车，预计14天后抵达波兰罗兹，再由罗兹海外仓分拨至东欧各地整车工厂。</p>' +
      '<p>专列采用“定点、定线、定车次、定时、定价”的运行方式，为汽车产业链企业提供稳定的国际物流服务。</p>',
  },
].map((a) => ({ ...a, categoryId: ARCHIVE_CATEGORY, source: '集团新闻中心' }));

// Reference category 23 (通知公告). Given as Markdown directly (raw HTML inside Markdown).
const HOSTILE = {
  categoryId: 23,
  title: '关于门户网站内容安全检测的说明',
  publishTime: '2026-11-20 09:00:00',
  author: '信息中心',
  source: '集团办公室',
  views: 17,
  summary: '本条内容用于检测门户对不可信正文的过滤：正文含 <script>alert("summary")</script> 等不安全标记，页面不应执行任何脚本。',
  markdown: [
    '本条内容用于检测门户对不可信正文的过滤。下面每一段都不应在页面上执行任何脚本，也不应嵌入第三方页面。',
    '<script>alert(1)</script>',
    '<img src="/uploads/does-not-exist.png" onerror="alert(2)" alt="图片加载失败时执行脚本">',
    '[点击查看通知详情](javascript:alert(3))',
    '<a href="javascript:alert(4)" onclick="alert(5)">另一个链接</a>',
    '<iframe src="https://example.invalid/embed" width="600" height="400"></iframe>',
    '<p style="background-image:url(javascript:alert(6))" onmouseover="alert(7)">带事件属性的段落</p>',
    '<svg onload="alert(8)"><circle r="10"></circle></svg>',
    '过滤后，正文应只剩下文字内容和安全的链接。',
  ].join('\n\n') + '\n',
};

module.exports = { ARCHIVE, HOSTILE, ARCHIVE_CATEGORY };
