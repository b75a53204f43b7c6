//! How text becomes terms, for the index and for a visitor's query alike.
//!
//! Every text is first **folded**: full-width letters, digits and signs become their half-width
//! forms (ＡＢＣ１２３ → abc123), letters lose their case, and traditional characters become
//! simplified ones (長安號 → 长安号, fast2s). Folding keeps one character for one character, so
//! each term can point back into the text as written, which the highlighted fragments need.
//!
//! Then two analyses of the folded text feed two sets of fields:
//! - **grams**: each run of Chinese (or Japanese, Korean) characters as its single characters and
//!   overlapping pairs, other letters and digits as whole words. A visitor's words become pairs
//!   at consecutive positions, so a phrase of pairs matches exactly where the words occur as
//!   written, inside a longer word too (班列 in 中欧班列, 长安号 in “长安号”), whatever a
//!   dictionary thinks of them. This is what decides whether an article matches.
//! - **words**: jieba's segmentation (search mode: 中欧班列 also as 中欧 and 班列), which ranks an
//!   article where the query's words stand as words above one where they only occur as
//!   characters, and lets a query of several words match them apart (公司召开 2024 …).

use std::{ops::Range, sync::LazyLock};

use jieba_rs::Jieba;
use tantivy::tokenizer::{Token, TokenStream, Tokenizer};

/// jieba-rs's own dictionary (`data/jieba-dict.txt`, MIT, as the crate ships it), built into the
/// binary as text. The crate's `default-dict` feature embeds the same file compressed with zstd,
/// and zstd's C library cost ~47 s of CPU in every build (two builds of zstd-sys, docs/
/// performance.md, "Builds"); read as text it costs the binary ~3.5 MB more and no time.
const DICT: &str = include_str!("../data/jieba-dict.txt");

/// The dictionary, loaded once (about 0.2 s) by the first analysis.
static JIEBA: LazyLock<Jieba> = LazyLock::new(|| {
    Jieba::with_dict(&mut DICT.as_bytes()).expect("data/jieba-dict.txt is jieba's dictionary")
});

/// Loads the dictionary now (the index does so off the request path, before it answers).
pub fn warm_up() {
    LazyLock::force(&JIEBA);
}

/// A text folded for matching, with the way back to the text as written.
pub struct Folded {
    pub text: String,
    /// For each character of `text`: its byte offset there and in the original; then the two
    /// lengths.
    starts: Vec<(usize, usize)>,
}

impl Folded {
    /// The original byte offset of a folded one (a character boundary of the folded text).
    fn original(&self, folded: usize) -> usize {
        match self.starts.binary_search_by_key(&folded, |&(f, _)| f) {
            Ok(i) => self.starts[i].1,
            // Inside a character: the start of the one holding it.
            Err(i) => self.starts[i.saturating_sub(1)].1,
        }
    }

    fn original_range(&self, folded: Range<usize>) -> Range<usize> {
        self.original(folded.start)..self.original(folded.end)
    }
}

/// Folds one character: full-width to half-width, letters to lower case. Traditional to
/// simplified is done on the whole text (fast2s looks at the neighbours).
fn fold_char(c: char) -> char {
    match c {
        '\u{3000}' => ' ',
        '\u{FF01}'..='\u{FF5E}' => {
            char::from_u32(c as u32 - 0xFEE0).map_or(c, |h| h.to_ascii_lowercase())
        }
        c if c.is_ascii() => c.to_ascii_lowercase(),
        c if c.is_uppercase() => {
            let mut lower = c.to_lowercase();
            match (lower.next(), lower.next()) {
                (Some(l), None) => l,
                _ => c,
            }
        }
        c => c,
    }
}

pub fn fold(text: &str) -> Folded {
    let widths: String = text.chars().map(fold_char).collect();
    let simplified = fast2s::convert(&widths);
    // fast2s writes one character for each; should a version not, the widths alone are kept.
    let folded = if simplified.chars().count() == widths.chars().count() {
        simplified
    } else {
        widths
    };
    let mut starts = Vec::with_capacity(folded.len() / 2 + 2);
    for ((f, _), (o, _)) in folded.char_indices().zip(text.char_indices()) {
        starts.push((f, o));
    }
    starts.push((folded.len(), text.len()));
    Folded {
        text: folded,
        starts,
    }
}

/// Where `needle` (folded) first stands in `text` once folded, as a byte range of `text` as written.
pub fn find_folded(text: &str, needle: &str) -> Option<Range<usize>> {
    if needle.is_empty() {
        return None;
    }
    let folded = fold(text);
    let at = folded.text.find(needle)?;
    Some(folded.original_range(at..at + needle.len()))
}

/// Characters written without spaces between words: Han, kana, Hangul.
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF
        | 0xF900..=0xFAFF | 0x20000..=0x2FA1F)
}

/// A piece of folded text: a run of CJK characters, or a word of other letters and digits.
enum Piece<'a> {
    Cjk(Vec<(usize, char)>),
    Word(Range<usize>, &'a str),
}

fn pieces(text: &str) -> Vec<Piece<'_>> {
    fn flush_word<'a>(
        text: &'a str,
        word: &mut Option<usize>,
        end: usize,
        out: &mut Vec<Piece<'a>>,
    ) {
        if let Some(start) = word.take() {
            out.push(Piece::Word(start..end, &text[start..end]));
        }
    }
    let mut out = Vec::new();
    let mut run: Vec<(usize, char)> = Vec::new();
    let mut word: Option<usize> = None;
    for (i, c) in text.char_indices() {
        if is_cjk(c) {
            flush_word(text, &mut word, i, &mut out);
            run.push((i, c));
        } else {
            if !run.is_empty() {
                out.push(Piece::Cjk(std::mem::take(&mut run)));
            }
            if c.is_alphanumeric() {
                word.get_or_insert(i);
            } else {
                flush_word(text, &mut word, i, &mut out);
            }
        }
    }
    flush_word(text, &mut word, text.len(), &mut out);
    if !run.is_empty() {
        out.push(Piece::Cjk(run));
    }
    out
}

/// The gram terms of a folded text with their byte ranges there and positions. For the index
/// (`query == false`) a run gives every single character and every pair; for a query, only the
/// pairs (a run of one, its character), which then follow each other position by position.
fn grams(text: &str, query: bool) -> Vec<(String, Range<usize>, usize)> {
    let mut out = Vec::new();
    let mut position = 0;
    for piece in pieces(text) {
        match piece {
            Piece::Word(range, word) => {
                out.push((word.to_owned(), range, position));
                position += 1;
            }
            Piece::Cjk(run) => {
                let end_of = |i: usize| run[i].0 + run[i].1.len_utf8();
                for i in 0..run.len() {
                    if !query || run.len() == 1 {
                        out.push((run[i].1.to_string(), run[i].0..end_of(i), position + i));
                    }
                    if i + 1 < run.len() {
                        let pair: String = [run[i].1, run[i + 1].1].into_iter().collect();
                        out.push((pair, run[i].0..end_of(i + 1), position + i));
                    }
                }
                position += if query && run.len() > 1 {
                    run.len() - 1
                } else {
                    run.len()
                };
            }
        }
    }
    out
}

/// The gram terms of a visitor's words, in order, each at the position after the one before.
pub fn query_grams(text: &str) -> Vec<String> {
    grams(&fold(text).text, true)
        .into_iter()
        .map(|(term, _, _)| term)
        .collect()
}

/// The words of a visitor's text as jieba cuts it (not the search mode's sub-words), each a
/// word of two characters or more, or a word of letters or digits.
pub fn query_words(text: &str) -> Vec<String> {
    let folded = fold(text);
    let mut words: Vec<String> = JIEBA
        .cut(&folded.text, true)
        .into_iter()
        .map(|t| t.word)
        .filter(|w| is_word(w) && (w.chars().count() > 1 || !w.chars().any(is_cjk)))
        .map(str::to_owned)
        .collect();
    words.dedup();
    words
}

fn is_word(word: &str) -> bool {
    word.chars().any(char::is_alphanumeric)
}

/// Tokens handed to tantivy, already made.
pub struct Made {
    tokens: Vec<Token>,
    next: usize,
}

impl Made {
    fn new(tokens: Vec<Token>) -> Self {
        Self { tokens, next: 0 }
    }
}

impl TokenStream for Made {
    fn advance(&mut self) -> bool {
        self.next += 1;
        self.next <= self.tokens.len()
    }

    fn token(&self) -> &Token {
        &self.tokens[self.next - 1]
    }

    fn token_mut(&mut self) -> &mut Token {
        &mut self.tokens[self.next - 1]
    }
}

fn token(folded: &Folded, text: String, range: Range<usize>, position: usize) -> Token {
    let range = folded.original_range(range);
    Token {
        offset_from: range.start,
        offset_to: range.end,
        position,
        position_length: 1,
        text,
    }
}

/// The `grams` analysis of the index's fields (see the module's doc).
#[derive(Clone, Default)]
pub struct GramTokenizer;

impl Tokenizer for GramTokenizer {
    type TokenStream<'a> = Made;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> Made {
        let folded = fold(text);
        Made::new(
            grams(&folded.text, false)
                .into_iter()
                .map(|(term, range, position)| token(&folded, term, range, position))
                .collect(),
        )
    }
}

/// The `words` analysis: jieba's search-mode words of the folded text.
#[derive(Clone, Default)]
pub struct WordTokenizer;

impl Tokenizer for WordTokenizer {
    type TokenStream<'a> = Made;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> Made {
        let folded = fold(text);
        let tokens = JIEBA
            .cut_for_search(&folded.text, true)
            .into_iter()
            .filter(|t| is_word(t.word))
            .enumerate()
            .map(|(position, t)| {
                token(
                    &folded,
                    t.word.to_owned(),
                    t.byte_start..t.byte_end,
                    position,
                )
            })
            .collect();
        Made::new(tokens)
    }
}

/// The text of an article's (sanitised) HTML body, as a reader sees it: blocks on lines of their
/// own, entities decoded, at most `max_chars` characters.
pub fn html_text(html: &str, max_chars: usize) -> String {
    use lol_html::{Settings, doc_text, element, rewrite_str};
    use std::cell::RefCell;

    let out = RefCell::new(String::new());
    let blocks =
        "p, div, br, li, tr, h1, h2, h3, h4, h5, h6, blockquote, figcaption, table, section, pre";
    let settings = Settings::new()
        .with_strict(false)
        .append_element_content_handler(element!(blocks, |_| {
            out.borrow_mut().push('\n');
            Ok(())
        }))
        .append_element_content_handler(element!("td, th", |_| {
            out.borrow_mut().push(' ');
            Ok(())
        }))
        .append_document_content_handler(doc_text!(|chunk| {
            out.borrow_mut().push_str(chunk.as_str());
            Ok(())
        }));
    let rewritten = rewrite_str(html, settings);
    let raw = match rewritten {
        Ok(_) => out.into_inner(),
        // Not HTML lol_html can read (the body was sanitised, so this is rare): its text is
        // still better than nothing.
        Err(_) => html.to_owned(),
    };
    let decoded = html_escape::decode_html_entities(&raw);
    let mut text = String::with_capacity(decoded.len().min(max_chars * 3));
    let mut count = 0;
    for line in decoded.lines() {
        let line = line.split_whitespace().collect::<Vec<_>>().join(" ");
        if line.is_empty() {
            continue;
        }
        if !text.is_empty() {
            text.push('\n');
        }
        for c in line.chars() {
            if count == max_chars {
                return text;
            }
            text.push(c);
            count += 1;
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(mut tokenizer: impl Tokenizer, text: &str) -> Vec<(String, String, usize)> {
        let mut stream = tokenizer.token_stream(text);
        let mut out = Vec::new();
        while stream.advance() {
            let t = stream.token();
            out.push((
                t.text.clone(),
                text[t.offset_from..t.offset_to].to_owned(),
                t.position,
            ));
        }
        out
    }

    #[test]
    fn folding_keeps_one_character_for_one_and_points_back() {
        let folded = fold("長安號ＡＢＣ１２３　Xi");
        assert_eq!(folded.text, "长安号abc123 xi");
        // 號 (3 bytes) → 号; Ａ (3 bytes) → a (1 byte): the way back lands on the original.
        assert_eq!(folded.original(9), 9);
        assert_eq!(folded.original(10), 12);
        assert_eq!(
            folded.original(folded.text.len()),
            "長安號ＡＢＣ１２３　Xi".len()
        );
    }

    #[test]
    fn grams_are_pairs_and_characters_and_words_whole() {
        let found = terms(GramTokenizer, "中欧班列A级2024年");
        let texts: Vec<&str> = found.iter().map(|(t, _, _)| t.as_str()).collect();
        assert_eq!(
            texts,
            [
                "中", "中欧", "欧", "欧班", "班", "班列", "列", "a", "级", "2024", "年"
            ]
        );
        assert!(found.contains(&("班列".into(), "班列".into(), 2)));
        assert!(found.contains(&("a".into(), "A".into(), 4)));
        assert!(found.contains(&("级".into(), "级".into(), 5)));
        assert!(found.contains(&("2024".into(), "2024".into(), 6)));
        assert_eq!(query_grams("欧班列"), ["欧班", "班列"]);
        assert_eq!(query_grams("港"), ["港"]);
        assert_eq!(query_grams("長安號"), ["长安", "安号"]);
        assert_eq!(query_grams("“长安号”"), ["长安", "安号"]);
        assert_eq!(
            query_grams("公司召开２０２４"),
            ["公司", "司召", "召开", "2024"]
        );
    }

    #[test]
    fn a_query_phrase_lines_up_with_the_text_it_names() {
        // Query grams at consecutive positions; the indexed pairs of the same words likewise.
        let indexed = terms(GramTokenizer, "开行“长安号”班列");
        let at = |term: &str| indexed.iter().find(|(t, _, _)| t == term).map(|x| x.2);
        assert_eq!(at("长安").map(|p| p + 1), at("安号"));
    }

    #[test]
    fn words_come_from_jieba_in_search_mode() {
        let found: Vec<String> = terms(WordTokenizer, "中欧班列开行")
            .into_iter()
            .map(|(t, _, _)| t)
            .collect();
        assert!(found.contains(&"班列".to_owned()), "{found:?}");
        let words = query_words("公司召开2024年会");
        assert!(
            words.contains(&"公司".to_owned()) && words.contains(&"2024".to_owned()),
            "{words:?}"
        );
        // Single characters are no words of their own: 的 would match everything.
        assert!(query_words("运输的").iter().all(|w| w != "的"));
    }

    #[test]
    fn html_becomes_the_text_a_reader_sees() {
        let text = html_text(
            "<h2>标题</h2><p>第一段&amp;<b>加粗</b></p><table><tr><td>甲</td><td>乙</td></tr></table><p>末段</p>",
            100,
        );
        assert_eq!(text, "标题\n第一段&加粗\n甲 乙\n末段");
        assert_eq!(html_text("<p>一二三四五</p>", 3), "一二三");
        assert_eq!(html_text("&lt;script&gt;x", 100), "<script>x");
    }
}
