"""The RSS feeds, read by a feed reader's parser (feedparser), as a subscriber's reader would.

usage: check_feeds.py GATEWAY_URL
Every list category's feed and the all-news feed: well-formed RSS 2.0, its title, and its latest
20 articles (newest first) with title, a link to the article's real URL that answers 200, a date
and a summary, matching what the API lists. Exits 1 naming what is wrong.
"""
import json
import sys
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import feedparser

base = sys.argv[1].rstrip("/")
problems = []
# Each item's link, by the feed that named it: fetched once each at the end, four at a time (the
# all-news feed repeats the lists' articles, and each is a page rendered cold: one by one they were
# most of this check's 25 s).
links = {}


def get(path):
    with urllib.request.urlopen(base + path, timeout=10) as answer:
        return answer.status, answer.read()


def status_of(path):
    try:
        return get(path)[0]
    except urllib.error.HTTPError as error:
        return error.code


def check(path, expected_ids):
    status, body = get(path)
    feed = feedparser.parse(body)
    if status != 200 or feed.bozo:
        problems.append(f"{path}: status {status}, parse error {feed.get('bozo_exception')}")
        return
    if feed.version != "rss20":
        problems.append(f"{path}: {feed.version}, not RSS 2.0")
    if not feed.feed.get("title"):
        problems.append(f"{path}: no channel title")
    ids = []
    for entry in feed.entries:
        for field in ("title", "link", "published_parsed", "summary"):
            if not entry.get(field):
                problems.append(f"{path}: an item without {field}: {entry.get('title')}")
        link = entry.get("link", "")
        local = link.split("://", 1)[-1].split("/", 1)[-1]
        ids.append(int(local.rsplit("/", 1)[-1].removesuffix(".html")))
        links.setdefault("/" + local, (path, link))
    if ids != expected_ids:
        problems.append(f"{path}: items {ids}, expected {expected_ids}")


def api(path):
    return json.loads(get(path)[1])["result"]


def walk(categories):
    for category in categories:
        yield category
        yield from walk(category.get("subCategory", []))


tree = api("/portal/api/category/list")["content"]
lists = [c for c in walk(tree) if c.get("type") == "list"]
news = []
for category in lists:
    page = api(f"/portal/api/article/list?categoryId={category['id']}&page=1&size=20")["content"]
    check(f"/portal/feed/{category['id']}.xml", [a["id"] for a in page])
    if category["url"].startswith("/news_center/"):
        news.extend(page)
news.sort(key=lambda a: (a.get("publishTime", ""), a["id"]), reverse=True)
check("/portal/feed/news.xml", [a["id"] for a in news[:20]])

with ThreadPoolExecutor(max_workers=4) as pool:
    statuses = pool.map(status_of, links)
for (path, link), status in zip(links.values(), statuses):
    if status != 200:
        problems.append(f"{path}: {link} does not answer")

for problem in problems:
    print(f"check-feeds: {problem}", file=sys.stderr)
if problems:
    sys.exit(1)
print(f"check-feeds: {len(lists) + 1} feeds parse (feedparser), items match the API, links answer")
