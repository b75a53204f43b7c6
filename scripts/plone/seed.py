"""Fills a new Plone site with a small company's folders and news, through plone.restapi as an
editor would (make test-plone). Fictional content. Prints what the test checks, as JSON."""
import base64
import json
import struct
import sys
import urllib.request
import zlib

SITE = sys.argv[1].rstrip("/")  # http://127.0.0.1:PORT/Plone
AUTH = "Basic " + base64.b64encode(sys.argv[2].encode()).decode()


def call(method, url, body=None):
    request = urllib.request.Request(
        url,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Accept": "application/json", "Content-Type": "application/json", "Authorization": AUTH},
    )
    with urllib.request.urlopen(request) as answer:
        text = answer.read()
        return json.loads(text) if text else None


def png(width, height, rgb):
    """A plain PNG of one colour (a cover for the test: no image library needed)."""
    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def add(parent, kind, id, title, publish=True, **fields):
    made = call("POST", parent, {"@type": kind, "id": id, "title": title, **fields})
    if publish:
        call("POST", made["@id"] + "/@workflow/publish", {})
    return made["@id"]


def news(parent, id, title, body, summary="", effective=None, publish=True, cover=None):
    fields = {"description": summary, "text": {"content-type": "text/html", "data": body, "encoding": "utf-8"}}
    if effective:
        fields["effective"] = effective
    if cover:
        fields["image"] = {"data": base64.b64encode(cover).decode(), "encoding": "base64",
                           "filename": "cover.png", "content-type": "image/png"}
    return add(parent, "News Item", id, title, publish, **fields)


about = add(SITE, "Folder", "about", "走进我们")
profile = add(about, "Folder", "company_profile", "公司简介", description="公司的概况")
news(profile, "profile", "公司简介", "<p>青岚陆港物流有限公司成立于2015年，经营中欧班列与多式联运。</p>", effective="2026-01-05T09:00:00+08:00")
centre = add(SITE, "Folder", "news_center", "新闻中心")
announcements = add(centre, "Folder", "company_announcement", "公司要闻")
for n in range(1, 13):
    news(
        announcements,
        f"news-{n:02d}",
        f"青岚陆港第{n}期班列顺利发车",
        f"<p>第{n}期班列满载机电产品从青岚陆港发车，预计十五天后抵达杜伊斯堡。</p>"
        f"<p>详见<a href=\"{SITE}/news_center/notice/spring-schedule\">春节运输安排</a>。</p>",
        summary=f"第{n}期班列发车",
        effective=f"2026-11-{n:02d}T10:00:00+08:00",
        cover=png(64, 40, (20, 90, 160)) if n == 12 else None,
    )
news(announcements, "draft-plan", "尚未发布的计划", "<p>草稿，访客不应看到。</p>", publish=False)
notice = add(centre, "Folder", "notice", "通知公告")
news(notice, "spring-schedule", "关于春节期间运输安排的通知", "<p>春节期间班列照常运行。</p>", effective="2026-11-20T08:30:00+08:00")
# A page (Plone's Document), not a news item: articles are both types (the example's portal_type list).
add(notice, "Document", "service-hours", "关于元旦假期客服时间的说明",
    description="元旦假期客服时间",
    text={"content-type": "text/html", "encoding": "utf-8",
          "data": "<p>元旦假期期间，客服热线每日九时至十七时值守。</p>"
                  f"<p>其他安排见<a href=\"{SITE}/news_center/notice\">通知公告</a>。</p>"},
    effective="2026-11-18T09:00:00+08:00")
business = add(SITE, "Folder", "business", "业务板块")
train = add(business, "Folder", "china-europe_train", "中欧班列", description="连接中国与欧洲的铁路货运")
news(train, "china-europe-train", "中欧班列", "<p>每周开行十二列，覆盖欧洲十五个国家。</p>", effective="2026-02-01T09:00:00+08:00")
print(json.dumps({"site": SITE}))
