//! The CMS's own article page addresses (`dialect.links.article`), read out of links in bodies:
//! `https://cms.example.com/news/{id}.html` names an article by id, `/news/*/{slug}/` by the
//! slug the CMS gives its page (which the gateway looks up, `endpoints.article_by_slug`), and
//! `/Plone/{path}` by where it sits, for a CMS whose ids are paths (`dialect.ids = "paths"`).

use portal_core::model::Id;

/// What a link to one of the CMS's article pages names.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ArticleRef {
    Id(Id),
    Slug(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Text(String),
    /// `*`: one path segment, whatever it says (a category, a year).
    AnySegment,
    Id,
    Slug,
    /// `{path}`: one or more segments, the id of a CMS whose ids are paths (`/` read as `:`).
    Path,
}

/// One compiled pattern: fixed text, `*` segments and one `{id}` or `{slug}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkPattern(Vec<Piece>);

/// A slug as the gateway passes it on to the CMS: letters, digits, `-`, `_`, `.` and `%`
/// (a percent-encoded Chinese slug, as WordPress writes them), 1–200 long.
pub fn is_slug(text: &str) -> bool {
    (1..=200).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'%'))
        && text != "."
        && text != ".."
}

impl LinkPattern {
    /// `pattern` as the config writes it; the error says what is wrong with it.
    pub fn compile(pattern: &str) -> Result<Self, String> {
        let mut pieces = Vec::new();
        let mut text = String::new();
        let mut rest = pattern;
        let mut names = 0;
        while !rest.is_empty() {
            let (piece, len) = if rest.starts_with("{id}") {
                (Some(Piece::Id), 4)
            } else if rest.starts_with("{path}") {
                (Some(Piece::Path), 6)
            } else if rest.starts_with("{slug}") {
                (Some(Piece::Slug), 6)
            } else if rest.starts_with('*') {
                (Some(Piece::AnySegment), 1)
            } else {
                (None, rest.chars().next().map_or(1, char::len_utf8))
            };
            match piece {
                Some(piece) => {
                    if !text.is_empty() {
                        pieces.push(Piece::Text(std::mem::take(&mut text)));
                    }
                    if matches!(piece, Piece::Id | Piece::Slug | Piece::Path) {
                        names += 1;
                    }
                    pieces.push(piece);
                }
                None => text.push_str(&rest[..len]),
            }
            rest = &rest[len..];
        }
        if !text.is_empty() {
            pieces.push(Piece::Text(text));
        }
        let starts_fixed = matches!(pieces.first(), Some(Piece::Text(t)) if t.contains('/'));
        if names != 1 || !starts_fixed {
            return Err(format!(
                "`{pattern}` must hold `{{id}}`, `{{slug}}` or `{{path}}` once after some fixed \
                 text, e.g. https://cms.example.com/news/{{id}}.html, /news/*/{{slug}}/ (`*` is \
                 one path segment) or /Plone/{{path}} (ids that are paths)"
            ));
        }
        Ok(Self(pieces))
    }

    /// Whether this pattern names articles by slug (and so needs a lookup).
    pub fn by_slug(&self) -> bool {
        self.0.contains(&Piece::Slug)
    }

    /// Whether this pattern names articles by path (`{path}`: for ids that are paths only).
    pub fn by_path(&self) -> bool {
        self.0.contains(&Piece::Path)
    }

    /// The article `link` names, when it matches the whole pattern. A trailing `/` the pattern
    /// does not write is allowed (`/p/7/` for `/p/{id}`).
    pub fn matches(&self, link: &str) -> Option<ArticleRef> {
        let link = if self.ends_with_slash() {
            link
        } else {
            link.strip_suffix('/').unwrap_or(link)
        };
        Self::match_from(&self.0, link)
    }

    fn ends_with_slash(&self) -> bool {
        matches!(self.0.last(), Some(Piece::Text(t)) if t.ends_with('/'))
    }

    fn match_from(pieces: &[Piece], link: &str) -> Option<ArticleRef> {
        let Some((piece, rest)) = pieces.split_first() else {
            return link.is_empty().then(|| ArticleRef::Id(Id::top()));
        };
        match piece {
            Piece::Text(text) => Self::match_from(rest, link.strip_prefix(text.as_str())?),
            Piece::Path => {
                // Segments up to the query or fragment, fixed text after it deciding where it
                // stops (shortest first); each segment a name (never empty, `.` or `..`).
                let end = link.find(['?', '#']).unwrap_or(link.len());
                (1..=end)
                    .filter(|end| link.is_char_boundary(*end))
                    .find_map(|end| {
                        let (value, after) = link.split_at(end);
                        Self::match_from(rest, after)?;
                        let named = value
                            .split('/')
                            .all(|s| !s.is_empty() && s != "." && s != ".." && !s.contains(':'));
                        if !named {
                            return None;
                        }
                        Id::parse(&value.replace('/', ":")).ok().map(ArticleRef::Id)
                    })
            }
            Piece::AnySegment | Piece::Id | Piece::Slug => {
                // A named or `*` piece takes one segment's worth of text: try each end in turn
                // (short ones first), so fixed text after it decides where it stops.
                let segment = link.find(['/', '?', '#']).unwrap_or(link.len());
                // Only at a character's edge: a link with Chinese in the segment panicked here.
                (1..=segment)
                    .filter(|end| link.is_char_boundary(*end))
                    .find_map(|end| {
                        let (value, after) = link.split_at(end);
                        let found = Self::match_from(rest, after)?;
                        match piece {
                            Piece::AnySegment => Some(found),
                            // Shortest first: `{id}.html` reads `7` of `7.html`, not `7.html`.
                            Piece::Id => Id::parse(value).ok().map(ArticleRef::Id),
                            Piece::Slug => {
                                is_slug(value).then(|| ArticleRef::Slug(value.to_owned()))
                            }
                            Piece::Text(_) | Piece::Path => unreachable!(),
                        }
                    })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(p: &str) -> LinkPattern {
        LinkPattern::compile(p).unwrap()
    }

    #[test]
    fn ids_and_slugs_are_read_out_of_links() {
        let by_id = pattern("https://cms.example.com/news/{id}.html");
        assert_eq!(
            by_id.matches("https://cms.example.com/news/42.html"),
            Some(ArticleRef::Id(42.into()))
        );
        // The CMS's own ids, whatever their shape; never a path or a text with spaces.
        assert_eq!(
            by_id.matches("https://cms.example.com/news/4x2.html"),
            Some(ArticleRef::Id(
                portal_core::model::Id::parse("4x2").unwrap()
            ))
        );
        assert_eq!(by_id.matches("https://cms.example.com/news/4/2.html"), None);
        assert_eq!(
            by_id.matches("https://cms.example.com/news/云川.html"),
            None
        );
        assert_eq!(by_id.matches("https://cms.example.com/news/.html"), None);
        assert_eq!(
            pattern("/p/{id}").matches("/p/7/"),
            Some(ArticleRef::Id(7.into()))
        );
        assert_eq!(
            pattern("/?p={id}").matches("/?p=19"),
            Some(ArticleRef::Id(19.into()))
        );

        let by_slug = pattern("/news_center/*/{slug}/");
        assert!(by_slug.by_slug());
        assert_eq!(
            by_slug.matches("/news_center/company_announcement/news-003/"),
            Some(ArticleRef::Slug("news-003".to_owned()))
        );
        // `*` is one segment, never two; the slug is never empty or a path.
        assert_eq!(by_slug.matches("/news_center/a/b/news-003/"), None);
        assert_eq!(by_slug.matches("/news_center/a//"), None);
        assert_eq!(
            pattern("https://wp.example/*/*/{slug}/")
                .matches("https://wp.example/2026/05/%e6%96%b0/"),
            Some(ArticleRef::Slug("%e6%96%b0".to_owned()))
        );
        assert_eq!(
            pattern("https://wp.example/*/*/{slug}/").matches("https://wp.example/2026/05/a\"b/"),
            None
        );
    }

    #[test]
    fn a_path_names_the_article_at_it_segments_and_all() {
        let by_path = pattern("https://plone.example/Plone/{path}");
        assert!(by_path.by_path());
        assert_eq!(
            by_path.matches("https://plone.example/Plone/news_center/notice/spring-schedule"),
            Some(ArticleRef::Id(
                Id::parse("news_center:notice:spring-schedule").unwrap()
            ))
        );
        // A trailing slash, a query or a fragment are not part of it; nothing odd is a name.
        assert_eq!(
            by_path.matches("https://plone.example/Plone/news_center/notice/a/"),
            Some(ArticleRef::Id(Id::parse("news_center:notice:a").unwrap()))
        );
        for odd in [
            "https://plone.example/Plone/",
            "https://plone.example/Plone/a//b",
            "https://plone.example/Plone/a/../acl_users",
            "https://plone.example/Plone/a/./b",
            "https://plone.example/Plone/a:b",
            "https://plone.example/Plone/a?x=1",
            "https://plone.example/Other/a",
        ] {
            assert_eq!(by_path.matches(odd), None, "{odd}");
        }
        // Fixed text after it decides where it ends.
        assert_eq!(
            pattern("/site/{path}/view").matches("/site/a/b/view"),
            Some(ArticleRef::Id(Id::parse("a:b").unwrap()))
        );
    }

    #[test]
    fn a_pattern_names_one_article_after_fixed_text() {
        for bad in [
            "{id}",
            "/news/",
            "/a/{id}/{slug}",
            "*/{slug}",
            "news{id}",
            "/a/{path}/{id}",
        ] {
            assert!(LinkPattern::compile(bad).is_err(), "{bad}");
        }
    }
}
