//! The forms a CMS writes text in, turned into what the portal shows: bodies as Markdown
//! (pulldown-cmark) or as a block tree (Strapi's `blocks`) become HTML, which `finish.rs` then
//! sanitises like any other body; titles the CMS HTML-escaped (`&#8220;`) are decoded; summaries
//! wrapped in HTML (`<p>…</p>`) become plain text.

use std::fmt::Write;

use html_escape::{decode_html_entities, encode_double_quoted_attribute, encode_text};
use serde_json::Value;

/// A Markdown body as HTML (tables and strikethrough on; raw HTML passes through to the
/// sanitiser, which keeps what it keeps of any body).
pub fn markdown_to_html(markdown: &str) -> String {
    use pulldown_cmark::{Options, Parser, html};
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, Parser::new_ext(markdown, options));
    out
}

/// Text that may hold markup and entities as plain text: tags dropped, entities decoded,
/// runs of white space one space.
pub fn html_to_text(text: &str) -> String {
    let stripped = if text.contains('<') {
        ammonia::Builder::empty().clean(text).to_string()
    } else {
        text.to_owned()
    };
    let decoded = decode_html_entities(&stripped);
    decoded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A body written as a block tree (Strapi 5's `blocks` field: paragraphs, headings, lists,
/// quotes, code, images, links and marked text) as HTML; `None` when `value` is no block tree.
/// Every text and attribute is escaped here; unknown blocks keep their text.
pub fn blocks_to_html(value: &Value) -> Option<String> {
    let blocks = match value {
        Value::Array(blocks) => blocks,
        // Some CMSs store the tree as a JSON string.
        Value::String(text) => {
            return crate::bounded_json::from_str(text)
                .ok()?
                .as_array()
                .map(|b| render_all(b));
        }
        _ => return None,
    };
    Some(render_all(blocks))
}

fn render_all(blocks: &[Value]) -> String {
    let mut out = String::new();
    for block in blocks {
        block_html(block, &mut out);
    }
    out
}

fn children(node: &Value, out: &mut String) {
    for child in node["children"].as_array().into_iter().flatten() {
        inline_html(child, out);
    }
}

fn block_html(block: &Value, out: &mut String) {
    match block["type"].as_str().unwrap_or("") {
        "heading" => {
            let level = block["level"].as_u64().unwrap_or(2).clamp(1, 6);
            let _ = write!(out, "<h{level}>");
            children(block, out);
            let _ = write!(out, "</h{level}>");
        }
        "list" => {
            let tag = if block["format"] == "ordered" {
                "ol"
            } else {
                "ul"
            };
            let _ = write!(out, "<{tag}>");
            for item in block["children"].as_array().into_iter().flatten() {
                if item["type"] == "list" {
                    block_html(item, out);
                } else {
                    out.push_str("<li>");
                    children(item, out);
                    out.push_str("</li>");
                }
            }
            let _ = write!(out, "</{tag}>");
        }
        "quote" => {
            out.push_str("<blockquote>");
            children(block, out);
            out.push_str("</blockquote>");
        }
        "code" => {
            out.push_str("<pre><code>");
            children(block, out);
            out.push_str("</code></pre>");
        }
        "image" => {
            let image = &block["image"];
            let Some(url) = image["url"].as_str() else {
                return;
            };
            let alt = image["alternativeText"]
                .as_str()
                .or(image["name"].as_str())
                .unwrap_or("");
            out.push_str("<figure><img src=\"");
            out.push_str(&encode_double_quoted_attribute(url));
            out.push_str("\" alt=\"");
            out.push_str(&encode_double_quoted_attribute(alt));
            out.push('"');
            for side in ["width", "height"] {
                if let Some(n) = image[side].as_u64() {
                    let _ = write!(out, " {side}=\"{n}\"");
                }
            }
            out.push('>');
            if let Some(caption) = image["caption"].as_str().filter(|c| !c.is_empty()) {
                out.push_str("<figcaption>");
                out.push_str(&encode_text(caption));
                out.push_str("</figcaption>");
            }
            out.push_str("</figure>");
        }
        // A paragraph, and whatever else has children (its text kept).
        _ => {
            out.push_str("<p>");
            children(block, out);
            out.push_str("</p>");
        }
    }
}

fn inline_html(node: &Value, out: &mut String) {
    if node["type"] == "link" {
        let url = node["url"].as_str().unwrap_or("");
        out.push_str("<a href=\"");
        out.push_str(&encode_double_quoted_attribute(url));
        out.push_str("\">");
        children(node, out);
        out.push_str("</a>");
        return;
    }
    if node.get("children").is_some() {
        children(node, out);
        return;
    }
    let Some(text) = node["text"].as_str() else {
        return;
    };
    let marks: Vec<&str> = [
        ("bold", "strong"),
        ("italic", "em"),
        ("underline", "u"),
        ("strikethrough", "s"),
        ("code", "code"),
    ]
    .into_iter()
    .filter(|(mark, _)| node[*mark] == true)
    .map(|(_, tag)| tag)
    .collect();
    for tag in &marks {
        let _ = write!(out, "<{tag}>");
    }
    // Line breaks inside a text node are the editor's soft breaks.
    let mut lines = text.split('\n');
    if let Some(first) = lines.next() {
        out.push_str(&encode_text(first));
    }
    for line in lines {
        out.push_str("<br>");
        out.push_str(&encode_text(line));
    }
    for tag in marks.iter().rev() {
        let _ = write!(out, "</{tag}>");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn markdown_becomes_html() {
        let html = markdown_to_html(
            "## 标题\n\n正文**加粗**。\n\n- 一\n- 二\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
        );
        assert!(html.contains("<h2>标题</h2>"), "{html}");
        assert!(html.contains("<strong>加粗</strong>"), "{html}");
        assert!(html.contains("<li>一</li>"), "{html}");
        assert!(html.contains("<table>"), "{html}");
    }

    #[test]
    fn a_block_tree_becomes_escaped_html() {
        let tree = json!([
            {"type": "heading", "level": 3, "children": [{"type": "text", "text": "班列<开行>"}]},
            {"type": "paragraph", "children": [
                {"type": "text", "text": "第一行\n第二行 ", "bold": true},
                {"type": "link", "url": "https://example.com/?a=1&b=\"2\"", "children": [{"type": "text", "text": "链接"}]}
            ]},
            {"type": "list", "format": "ordered", "children": [
                {"type": "list-item", "children": [{"type": "text", "text": "一"}]}
            ]},
            {"type": "image", "image": {"url": "/uploads/a.svg", "alternativeText": "图\"", "width": 640, "caption": "说明"}},
            {"type": "quote", "children": [{"type": "text", "text": "引文", "italic": true}]}
        ]);
        let html = blocks_to_html(&tree).unwrap();
        assert!(html.contains("<h3>班列&lt;开行&gt;</h3>"), "{html}");
        assert!(
            html.contains("<strong>第一行<br>第二行 </strong>"),
            "{html}"
        );
        assert!(
            html.contains("href=\"https://example.com/?a=1&amp;b=&quot;2&quot;\""),
            "{html}"
        );
        assert!(html.contains("<ol><li>一</li></ol>"), "{html}");
        assert!(
            html.contains("<img src=\"/uploads/a.svg\" alt=\"图&quot;\" width=\"640\">"),
            "{html}"
        );
        assert!(html.contains("<figcaption>说明</figcaption>"), "{html}");
        assert!(
            html.contains("<blockquote><em>引文</em></blockquote>"),
            "{html}"
        );
        assert_eq!(blocks_to_html(&json!({"not": "blocks"})), None);
        let stored = Value::String(tree.to_string());
        assert_eq!(blocks_to_html(&stored).unwrap(), html);
    }

    #[test]
    fn markup_and_entities_become_text() {
        assert_eq!(
            html_to_text("<p>中欧班列&nbsp;<b>开行</b></p>\n<p>第二段</p>"),
            "中欧班列 开行 第二段"
        );
        assert_eq!(
            html_to_text("&#8220;一带一路&#8221; &amp; 物流"),
            "“一带一路” & 物流"
        );
        assert_eq!(html_to_text("纯文本"), "纯文本");
        assert_eq!(html_to_text("<script>alert(1)</script>摘要"), "摘要");
    }
}
