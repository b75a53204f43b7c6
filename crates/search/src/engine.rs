//! The index itself: tantivy's, with the portal's schema, what goes in for an article and how a
//! visitor's words become a query, hits, their highlighted fragments and the counts per section.
//! Every call here is blocking work (segmentation, scoring): `search/mod.rs` runs it off the
//! async workers.

use std::{
    collections::{HashMap, HashSet},
    ops::Bound,
    path::Path,
    sync::{
        Mutex,
        atomic::{AtomicU64, Ordering},
    },
};

use tantivy::{
    DocAddress, Index, IndexReader, IndexWriter, ReloadPolicy, Score, TantivyDocument, Term,
    collector::{Count, DocSetCollector, TopDocs},
    query::{BooleanQuery, BoostQuery, Occur, PhraseQuery, Query, RangeQuery, TermQuery},
    schema::{
        FAST, Field, INDEXED, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing,
        TextOptions, Value,
    },
    snippet::SnippetGenerator,
    tokenizer::TextAnalyzer,
};

use super::text::{self, GramTokenizer, WordTokenizer};
use portal_content::index::{Ask, Found, Hit};
use portal_core::model::{Article, Id, Marked};

/// Bumped whenever the schema or an analysis changes: an index on disk of another version is
/// built again rather than read with the wrong terms. 3: ids are the CMS's own text (`Id`).
pub const SCHEMA_VERSION: u64 = 3;

const GRAMS: &str = "portal_grams";
const WORDS: &str = "portal_words";

/// How much more a match in a title counts than one in a summary, and that than one in a body.
const TITLE_BOOST: Score = 6.0;
const SUMMARY_BOOST: Score = 3.0;
const BODY_BOOST: Score = 1.0;

/// Which texts of an article are indexed (`search.fields`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Indexed {
    pub summary: bool,
    pub body: bool,
}

#[derive(Clone, Copy)]
struct Fields {
    id: Field,
    /// The article's category and every category above it: the section filter.
    sections: Field,
    category: Field,
    /// `yyyymmddhhmmss`, China time: the date filter and the order of ties.
    published: Field,
    /// What the list showed of the article when it was read (a change means reading it again).
    fingerprint: Field,
    schema_version: Field,
    /// The article as a list shows it (JSON), handed back as a hit.
    card: Field,
    /// The body's text, for the fragments.
    body: Field,
    title_g: Field,
    summary_g: Field,
    body_g: Field,
    title_w: Field,
    summary_w: Field,
    body_w: Field,
}

fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    // Positions only where phrases are matched (the grams); the words only score.
    let text = |analyzer: &str| {
        let record = if analyzer == GRAMS {
            IndexRecordOption::WithFreqsAndPositions
        } else {
            IndexRecordOption::WithFreqs
        };
        TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(analyzer)
                .set_index_option(record),
        )
    };
    let fields = Fields {
        // Ids as their text (`Id`), untokenised: a term each.
        id: b.add_text_field("id", STRING | STORED | FAST),
        sections: b.add_text_field("sections", STRING),
        category: b.add_text_field("category", STRING | FAST | STORED),
        published: b.add_i64_field("published", INDEXED | FAST | STORED),
        fingerprint: b.add_u64_field("fingerprint", FAST | STORED),
        schema_version: b.add_u64_field("schema_version", FAST),
        card: b.add_text_field("card", STORED),
        body: b.add_text_field("body", STORED),
        title_g: b.add_text_field("title_g", text(GRAMS)),
        summary_g: b.add_text_field("summary_g", text(GRAMS)),
        body_g: b.add_text_field("body_g", text(GRAMS)),
        title_w: b.add_text_field("title_w", text(WORDS)),
        summary_w: b.add_text_field("summary_w", text(WORDS)),
        body_w: b.add_text_field("body_w", text(WORDS)),
    };
    (b.build(), fields)
}

/// What goes into the index for one article.
pub struct Doc {
    pub article: Article,
    /// The text of its body (`text::html_text`), empty when bodies are not indexed.
    pub body: String,
    pub sections: Vec<Id>,
    pub fingerprint: u64,
    /// Whether its summary is searched (`search.fields`); it is shown either way.
    pub summary_indexed: bool,
}

impl Doc {
    /// Bytes of the texts it puts in the index.
    pub fn text_bytes(&self) -> usize {
        let a = &self.article;
        a.title.len() + a.summary.as_ref().map_or(0, String::len) + self.body.len()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("the search index: {0}")]
    Tantivy(#[from] tantivy::TantivyError),
    #[error("the search index folder: {0}")]
    Folder(String),
    #[error("the search index is closed (the gateway is stopping)")]
    Closed,
}

pub struct Engine {
    reader: IndexReader,
    /// Taken at shutdown (`close`): its lock on the folder goes with it.
    writer: Mutex<Option<IndexWriter>>,
    fields: Fields,
    /// Without a folder: the index is the process's memory (`search.max_memory_bytes`).
    in_memory: bool,
    /// What the index's live articles held at its last commit, in bytes (`measure`).
    bytes: AtomicU64,
}

impl Engine {
    /// An index in memory, or in `dir` (read back when it holds one of this schema version,
    /// else emptied and built again).
    pub fn open(dir: Option<&Path>, writer_bytes: usize) -> Result<Self, EngineError> {
        let (schema, fields) = schema();
        let index = match dir {
            None => Index::create_in_ram(schema),
            Some(dir) => {
                std::fs::create_dir_all(dir).map_err(|e| EngineError::Folder(e.to_string()))?;
                let opened = tantivy::directory::MmapDirectory::open(dir)
                    .map_err(|e| EngineError::Folder(e.to_string()))
                    .and_then(|d| Index::open_or_create(d, schema.clone()).map_err(Into::into));
                match opened {
                    Ok(index) if Self::version_of(&index) == Some(SCHEMA_VERSION) => index,
                    Ok(index) if index.searchable_segment_ids()?.is_empty() => index,
                    // Another version's index, or one that cannot be read: built anew.
                    _ => {
                        tracing::info!(dir = %dir.display(), "the search index on disk is of another version: built again");
                        std::fs::remove_dir_all(dir)
                            .and_then(|()| std::fs::create_dir_all(dir))
                            .map_err(|e| EngineError::Folder(e.to_string()))?;
                        let d = tantivy::directory::MmapDirectory::open(dir)
                            .map_err(|e| EngineError::Folder(e.to_string()))?;
                        Index::open_or_create(d, schema)?
                    }
                }
            }
        };
        index
            .tokenizers()
            .register(GRAMS, TextAnalyzer::from(GramTokenizer));
        index
            .tokenizers()
            .register(WORDS, TextAnalyzer::from(WordTokenizer));
        let writer: IndexWriter = index.writer_with_num_threads(1, writer_bytes.max(15_000_000))?;
        // Segments a quarter deleted are merged (the default waits for wholly deleted ones): the
        // articles the keeper lets go to stay within `search.max_memory_bytes` give their room back.
        let mut merges = tantivy::indexer::LogMergePolicy::default();
        merges.set_del_docs_ratio_before_merge(0.25);
        writer.set_merge_policy(Box::new(merges));
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        let engine = Self {
            reader,
            writer: Mutex::new(Some(writer)),
            fields,
            in_memory: dir.is_none(),
            bytes: AtomicU64::new(0),
        };
        engine.measure();
        Ok(engine)
    }

    /// Notes what the index's live articles hold now: each segment's bytes in the share of its
    /// articles not deleted. (A deleted article's bytes stay until its segment is merged, at a
    /// quarter deleted: what the process holds is at most a third more.)
    fn measure(&self) {
        let searcher = self.reader.searcher();
        let mut live = 0u64;
        for segment in searcher.segment_readers() {
            let of = u64::from(segment.max_doc());
            let Ok(usage) = segment.space_usage() else {
                continue;
            };
            if of == 0 {
                continue;
            }
            live += usage.total().get_bytes() * u64::from(segment.num_docs()) / of;
        }
        self.bytes.store(live, Ordering::Relaxed);
    }

    /// Bytes the index's live articles held at its last commit.
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Whether the index lives in the process's memory (no `search.dir`).
    pub fn in_memory(&self) -> bool {
        self.in_memory
    }

    /// The schema version an index on disk was written with (`None`: empty, or unreadable).
    fn version_of(index: &Index) -> Option<u64> {
        let reader = index.reader().ok()?;
        let searcher = reader.searcher();
        let segment = searcher
            .segment_readers()
            .iter()
            .find(|s| s.num_docs() > 0)?;
        let column = segment.fast_fields().u64("schema_version").ok()?;
        column.first(0)
    }

    /// The articles the index holds, with the fingerprint each was read with.
    pub fn held(&self) -> HashMap<Id, u64> {
        let searcher = self.reader.searcher();
        let mut held = HashMap::new();
        let mut text = String::new();
        for segment in searcher.segment_readers() {
            let (Ok(Some(ids)), Ok(prints)) = (
                segment.fast_fields().str("id"),
                segment.fast_fields().u64("fingerprint"),
            ) else {
                continue;
            };
            for doc in segment.doc_ids_alive() {
                let Some(ord) = ids.term_ords(doc).next() else {
                    continue;
                };
                text.clear();
                if let (Ok(true), Some(print)) = (ids.ord_to_str(ord, &mut text), prints.first(doc))
                    && let Ok(id) = Id::parse(&text)
                {
                    held.insert(id, print);
                }
            }
        }
        held
    }

    /// Puts `docs` in place of what the index held of them (not yet visible: `commit`).
    pub fn put(&self, docs: Vec<Doc>) -> Result<(), EngineError> {
        let guard = self.writer.lock().expect("index writer lock");
        let Some(writer) = guard.as_ref() else {
            return Err(EngineError::Closed);
        };
        let f = self.fields;
        for doc in docs {
            let a = &doc.article;
            writer.delete_term(Term::from_field_text(f.id, a.id.as_str()));
            let mut d = TantivyDocument::default();
            d.add_text(f.id, a.id.as_str());
            d.add_text(f.category, a.category_id.as_str());
            for section in &doc.sections {
                d.add_text(f.sections, section.as_str());
            }
            d.add_i64(f.published, published(a.publish_time.as_deref()));
            d.add_u64(f.fingerprint, doc.fingerprint);
            d.add_u64(f.schema_version, SCHEMA_VERSION);
            let card = serde_json::to_string(a).unwrap_or_default();
            d.add_text(f.card, &card);
            d.add_text(f.title_g, &a.title);
            d.add_text(f.title_w, &a.title);
            if let Some(summary) = a.summary.as_ref().filter(|_| doc.summary_indexed) {
                d.add_text(f.summary_g, summary);
                d.add_text(f.summary_w, summary);
            }
            if !doc.body.is_empty() {
                d.add_text(f.body, &doc.body);
                d.add_text(f.body_g, &doc.body);
                d.add_text(f.body_w, &doc.body);
            }
            writer.add_document(d)?;
        }
        Ok(())
    }

    pub fn remove(&self, ids: &[Id]) {
        let guard = self.writer.lock().expect("index writer lock");
        let Some(writer) = guard.as_ref() else {
            return;
        };
        for id in ids {
            writer.delete_term(Term::from_field_text(self.fields.id, id.as_str()));
        }
    }

    /// Makes what was put and removed visible to searches.
    pub fn commit(&self) -> Result<(), EngineError> {
        let mut guard = self.writer.lock().expect("index writer lock");
        let writer = guard.as_mut().ok_or(EngineError::Closed)?;
        writer.commit()?;
        self.reader.reload()?;
        drop(guard);
        self.measure();
        Ok(())
    }

    /// Ends the writer (what was not committed is dropped) and frees its folder for the next
    /// process; searches go on with what was committed.
    pub fn close(&self) {
        let writer = self.writer.lock().expect("index writer lock").take();
        if let Some(writer) = writer {
            let _ = writer.wait_merging_threads();
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn len(&self) -> u64 {
        self.reader.searcher().num_docs()
    }

    /// The query of `ask`'s words (`None`: no word to look for), without its filters.
    fn words_query(&self, keyword: &str) -> Option<Box<dyn Query>> {
        let f = self.fields;
        let mut chunks: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        for (chunk, quoted) in chunks_of(keyword) {
            let grams = text::query_grams(&chunk);
            if grams.is_empty() {
                continue;
            }
            let exact = |field: Field, boost: Score| -> (Occur, Box<dyn Query>) {
                let query: Box<dyn Query> = if grams.len() == 1 {
                    Box::new(TermQuery::new(
                        Term::from_field_text(field, &grams[0]),
                        IndexRecordOption::WithFreqs,
                    ))
                } else {
                    Box::new(PhraseQuery::new(
                        grams
                            .iter()
                            .map(|g| Term::from_field_text(field, g))
                            .collect(),
                    ))
                };
                (Occur::Should, Box::new(BoostQuery::new(query, boost)))
            };
            let mut matches = vec![
                exact(f.title_g, TITLE_BOOST),
                exact(f.summary_g, SUMMARY_BOOST),
                exact(f.body_g, BODY_BOOST),
            ];
            let words = if quoted {
                Vec::new()
            } else {
                text::query_words(&chunk)
            };
            let word_in_any = |word: &str| -> Box<dyn Query> {
                Box::new(BooleanQuery::new(
                    [
                        (f.title_w, TITLE_BOOST),
                        (f.summary_w, SUMMARY_BOOST),
                        (f.body_w, BODY_BOOST),
                    ]
                    .into_iter()
                    .map(|(field, boost)| -> (Occur, Box<dyn Query>) {
                        (
                            Occur::Should,
                            Box::new(BoostQuery::new(
                                Box::new(TermQuery::new(
                                    Term::from_field_text(field, word),
                                    IndexRecordOption::WithFreqs,
                                )),
                                boost,
                            )),
                        )
                    })
                    .collect(),
                ))
            };
            // Several words of the chunk, each found somewhere though not side by side: a
            // match too, below the words as written.
            if words.len() > 1 {
                let all: Vec<(Occur, Box<dyn Query>)> = words
                    .iter()
                    .map(|w| (Occur::Must, word_in_any(w)))
                    .collect();
                matches.push((
                    Occur::Should,
                    Box::new(BoostQuery::new(Box::new(BooleanQuery::new(all)), 0.5)),
                ));
            }
            let mut clause: Vec<(Occur, Box<dyn Query>)> =
                vec![(Occur::Must, Box::new(BooleanQuery::new(matches)))];
            // Where the words stand as words (not only as characters), the article ranks higher.
            for word in &words {
                clause.push((Occur::Should, word_in_any(word)));
            }
            chunks.push((Occur::Must, Box::new(BooleanQuery::new(clause))));
        }
        if chunks.is_empty() {
            None
        } else {
            Some(Box::new(BooleanQuery::new(chunks)))
        }
    }

    fn with_filters(
        &self,
        words: &dyn Query,
        section: Option<&Id>,
        from: Option<u32>,
        to: Option<u32>,
    ) -> Box<dyn Query> {
        let f = self.fields;
        let mut all: Vec<(Occur, Box<dyn Query>)> = vec![(Occur::Must, words.box_clone())];
        if let Some(section) = section {
            all.push((
                Occur::Must,
                Box::new(TermQuery::new(
                    Term::from_field_text(f.sections, section.as_str()),
                    IndexRecordOption::Basic,
                )),
            ));
        }
        if from.is_some() || to.is_some() {
            let bound = |day: Option<u32>, time: i64| match day {
                Some(day) => Bound::Included(Term::from_field_i64(
                    f.published,
                    i64::from(day) * 1_000_000 + time,
                )),
                None => Bound::Unbounded,
            };
            all.push((
                Occur::Must,
                Box::new(RangeQuery::new(bound(from, 0), bound(to, 235_959))),
            ));
        }
        Box::new(BooleanQuery::new(all))
    }

    /// The hits of `ask` (its page), their total and the hits per category.
    pub fn search(&self, ask: &Ask) -> Result<Found, EngineError> {
        let Some(words) = self.words_query(&ask.keyword) else {
            return Ok(Found {
                hits: Vec::new(),
                total: 0,
                per_category: Vec::new(),
                building: false,
            });
        };
        let searcher = self.reader.searcher();
        let query = self.with_filters(words.as_ref(), ask.section.as_ref(), ask.from, ask.to);
        let offset = (ask.page.saturating_sub(1) as usize).saturating_mul(ask.size as usize);
        let f = self.fields;
        // Score first; among equal scores, the newer article.
        let top = TopDocs::with_limit(ask.size.max(1) as usize)
            .and_offset(offset)
            .tweak_score(move |segment: &tantivy::SegmentReader| {
                let published = segment
                    .fast_fields()
                    .i64("published")
                    .ok()
                    .map(|c| c.first_or_default_col(0));
                move |doc: tantivy::DocId, score: Score| {
                    let when = published.as_ref().map_or(0, |c| c.get_val(doc));
                    // Scores equal to a thousandth are a tie.
                    ((score * 1000.0).round() as i64, when)
                }
            });
        let (ranked, total) = searcher.search(query.as_ref(), &(top, Count))?;
        let needles = needles(&ask.keyword);
        let title_snippets = snippets(&searcher, query.as_ref(), f.title_g, 200)?;
        let summary_snippets =
            snippets(&searcher, query.as_ref(), f.summary_g, ask.fragment_chars)?;
        let body_snippets = snippets(&searcher, query.as_ref(), f.body_g, ask.fragment_chars)?;
        let mut hits = Vec::with_capacity(ranked.len());
        for (_, address) in ranked {
            let doc: TantivyDocument = searcher.doc(address)?;
            let card = doc
                .get_first(f.card)
                .and_then(|v| v.as_str())
                .unwrap_or("{}");
            let Ok(article) = serde_json::from_str::<Article>(card) else {
                continue;
            };
            let body = doc.get_first(f.body).and_then(|v| v.as_str()).unwrap_or("");
            let title = marked_whole(&title_snippets, &article.title, &needles);
            let mut fragment = marked_fragment(&body_snippets, body, &needles);
            if fragment.iter().all(|m| !m.hit)
                && let Some(summary) = &article.summary
            {
                let from_summary = marked_fragment(&summary_snippets, summary, &needles);
                if from_summary.iter().any(|m| m.hit) {
                    fragment = from_summary;
                }
            }
            if fragment.iter().all(|m| !m.hit) {
                fragment.clear();
            }
            hits.push(Hit {
                article,
                title,
                fragment,
            });
        }
        // The filter's choices: hits per category with the same words and dates, any section.
        let unfiltered = self.with_filters(words.as_ref(), None, ask.from, ask.to);
        let all: HashSet<DocAddress> = searcher.search(unfiltered.as_ref(), &DocSetCollector)?;
        // Counted by each segment's term ordinal, named once per category at the end.
        let mut per: HashMap<(u32, u64), u64> = HashMap::new();
        let mut columns = HashMap::new();
        for address in all {
            let column = columns.entry(address.segment_ord).or_insert_with(|| {
                searcher
                    .segment_reader(address.segment_ord)
                    .fast_fields()
                    .str("category")
                    .ok()
                    .flatten()
            });
            if let Some(ord) = column
                .as_ref()
                .and_then(|c| c.term_ords(address.doc_id).next())
            {
                *per.entry((address.segment_ord, ord)).or_default() += 1;
            }
        }
        let mut named: HashMap<Id, u64> = HashMap::new();
        let mut text = String::new();
        for ((segment, ord), count) in per {
            text.clear();
            if let Some(column) = columns.get(&segment).and_then(Option::as_ref)
                && let Ok(true) = column.ord_to_str(ord, &mut text)
                && let Ok(id) = Id::parse(&text)
            {
                *named.entry(id).or_default() += count;
            }
        }
        let mut per_category: Vec<(Id, u64)> = named.into_iter().collect();
        per_category.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        Ok(Found {
            hits,
            total: total as u64,
            per_category,
            building: false,
        })
    }
}

fn snippets(
    searcher: &tantivy::Searcher,
    query: &dyn Query,
    field: Field,
    chars: usize,
) -> Result<SnippetGenerator, EngineError> {
    let mut generator = SnippetGenerator::create(searcher, query, field)?;
    generator.set_max_num_chars(chars.max(20));
    Ok(generator)
}

/// What a mark must hold to be one: each part of the query as a visitor wrote it (folded, only its
/// letters, digits and characters), and the words of its unquoted parts. The snippets mark every
/// pair of a phrase wherever it stands (换装 of 换装站 in 换装作业); a mark that holds none of these is
/// no match of the query.
fn needles(keyword: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (chunk, quoted) in chunks_of(keyword) {
        let core = core_of(&chunk);
        if !core.is_empty() {
            out.push(core);
        }
        // Words apart match only where the query has several (as `words_query` says).
        let words = if quoted {
            Vec::new()
        } else {
            text::query_words(&chunk)
        };
        if words.len() > 1 {
            out.extend(words);
        }
    }
    out
}

/// A text folded, with only its letters, digits and characters.
fn core_of(text: &str) -> String {
    text::fold(text)
        .text
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect()
}

/// `text` whole, its matches marked.
fn marked_whole(generator: &SnippetGenerator, text: &str, needles: &[String]) -> Vec<Marked> {
    let snippet = generator.snippet(text);
    let start = snippet.fragment_range().start;
    let ranges: Vec<_> = snippet
        .highlighted()
        .iter()
        .map(|r| r.start + start..r.end + start)
        .collect();
    parts(text, &ranges, 0..text.len(), needles)
}

/// The best fragment of `text`, its matches marked, with … where it was cut.
fn marked_fragment(generator: &SnippetGenerator, text: &str, needles: &[String]) -> Vec<Marked> {
    if text.is_empty() {
        return Vec::new();
    }
    let snippet = generator.snippet(text);
    let mut window = snippet.fragment_range();
    let mut ranges: Vec<_> = snippet
        .highlighted()
        .iter()
        .map(|r| r.start + window.start..r.end + window.start)
        .collect();
    // The snippet's best window may hold only pairs of a phrase (换装 of 换装站): then the window
    // around the first place the query stands as written.
    let marked = parts(text, &ranges, window.clone(), needles);
    if !marked.iter().any(|m| m.hit) {
        let Some(found) = needles.iter().find_map(|n| text::find_folded(text, n)) else {
            return Vec::new();
        };
        window = around(text, found.clone(), generator_chars(text, &window));
        ranges = vec![found];
    }
    let mut out = parts(text, &ranges, window.clone(), needles);
    if window.start > 0 {
        out.insert(0, Marked::text("…"));
    }
    if window.end < text.len() {
        out.push(Marked::text("…"));
    }
    out
}

/// The characters a fragment holds: the snippet's own window's, at least 60.
fn generator_chars(text: &str, window: &std::ops::Range<usize>) -> usize {
    text.get(window.clone())
        .map_or(0, |w| w.chars().count())
        .max(60)
}

/// About `chars` characters of `text` around `found` (a byte range), on character boundaries.
fn around(text: &str, found: std::ops::Range<usize>, chars: usize) -> std::ops::Range<usize> {
    let before = chars.saturating_sub(text[found.clone()].chars().count()) / 3;
    let start = text[..found.start]
        .char_indices()
        .rev()
        .nth(before.saturating_sub(1))
        .map_or(0, |(i, _)| i);
    let end = text[start..]
        .char_indices()
        .nth(chars)
        .map_or(text.len(), |(i, _)| start + i)
        .max(found.end);
    start..end
}

/// `text[window]` cut into plain and marked parts by `ranges` (byte ranges of `text`), each kept
/// when it holds one of `needles`.
fn parts(
    text: &str,
    ranges: &[std::ops::Range<usize>],
    window: std::ops::Range<usize>,
    needles: &[String],
) -> Vec<Marked> {
    // Overlapping or touching marks are one (the pairs of 长安号: 长安, 安号).
    let mut merged: Vec<std::ops::Range<usize>> = Vec::new();
    let mut sorted = ranges.to_vec();
    sorted.sort_by_key(|r| r.start);
    for r in sorted {
        match merged.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ => merged.push(r),
        }
    }
    let holds = |r: &std::ops::Range<usize>| {
        text.get(r.clone()).is_some_and(|marked| {
            let core = core_of(marked);
            needles.iter().any(|n| core.contains(n.as_str()))
        })
    };
    merged.retain(holds);
    let mut out = Vec::new();
    let mut at = window.start;
    for r in &merged {
        let (start, end) = (r.start.max(at), r.end.min(window.end));
        if start >= end || !text.is_char_boundary(start) || !text.is_char_boundary(end) {
            continue;
        }
        if start > at {
            out.push(Marked::text(text[at..start].trim_start_matches('\n')));
        }
        out.push(Marked::hit(&text[start..end]));
        at = end;
    }
    if at < window.end {
        out.push(Marked::text(&text[at..window.end]));
    }
    out.retain(|m| !m.text.is_empty());
    // A fragment is one line: the body's line breaks become spaces.
    for m in &mut out {
        if m.text.contains('\n') {
            m.text = m.text.replace('\n', " ");
        }
    }
    out
}

/// `yyyy-MM-dd HH:mm:ss` as `yyyymmddhhmmss` (0 without a time).
fn published(time: Option<&str>) -> i64 {
    let digits: String = time
        .unwrap_or("")
        .chars()
        .filter(char::is_ascii_digit)
        .take(14)
        .collect();
    format!("{digits:0<14}").parse().unwrap_or(0)
}

/// The query's parts: words between spaces, or a quoted phrase ("…" or “…”) whole.
pub fn chunks_of(keyword: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    let flush = |current: &mut String, quoted: bool, out: &mut Vec<(String, bool)>| {
        let chunk = current.trim();
        if !chunk.is_empty() {
            out.push((chunk.to_owned(), quoted));
        }
        current.clear();
    };
    for c in keyword.chars() {
        match (quote, c) {
            (None, '"' | '“' | '「') => {
                flush(&mut current, false, &mut out);
                quote = Some(match c {
                    '“' => '”',
                    '「' => '」',
                    _ => '"',
                });
            }
            (Some(close), c) if c == close => {
                flush(&mut current, true, &mut out);
                quote = None;
            }
            (None, c) if c.is_whitespace() || c == '\u{3000}' => {
                flush(&mut current, false, &mut out);
            }
            (_, c) => current.push(c),
        }
    }
    flush(&mut current, quote.is_some(), &mut out);
    out
}

#[cfg(test)]
pub(crate) mod tests;
