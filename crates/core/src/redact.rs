//! The one step every text the gateway writes out passes through when it may hold what a CMS or
//! a config said: log lines (the tracing writer, an access line's error), a CMS's message to a
//! visitor, `check-upstream`'s report. Each secret of every config loaded in this process (the
//! upstream credential in the forms it travels in, the admin token, the webhook secret, the shared
//! tier's password) is written `***`. A CMS that repeats its URL in an error message would
//! otherwise put a query credential into the warning, the access line and the visitor's answer.

use std::{
    borrow::Cow,
    collections::BTreeSet,
    io,
    sync::{LazyLock, RwLock},
};

/// Secrets shorter than this are not looked for: they would hide ordinary words.
const MIN_LEN: usize = 6;

/// Every secret of every config loaded so far (a reload's old ones stay: lines about the old
/// config may still be written).
/// Kept longest first (a secret's encoded form contains the secret itself), so `redact`, which
/// every log line passes through, only reads.
static SECRETS: LazyLock<RwLock<Vec<String>>> = LazyLock::new(RwLock::default);

/// Adds `found` (each secret in every form it may travel in) to those hidden.
pub fn remember(found: impl IntoIterator<Item = String>) {
    let mut secrets = SECRETS.write().expect("secrets lock");
    let mut all: BTreeSet<String> = secrets.drain(..).collect();
    all.extend(found.into_iter().filter(|s| s.len() >= MIN_LEN));
    secrets.extend(all);
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
}

/// `text` with every known secret written `***`.
pub fn redact(text: &str) -> Cow<'_, str> {
    let secrets = SECRETS.read().expect("secrets lock");
    let mut out = Cow::Borrowed(text);
    for secret in secrets.iter() {
        if out.contains(secret.as_str()) {
            out = Cow::Owned(out.replace(secret.as_str(), "***"));
        }
    }
    out
}

/// A writer passing each write (one whole log line, as tracing's formatter writes them) through
/// [`redact`].
pub struct Redacting<W>(pub W);

impl<W: io::Write> io::Write for Redacting<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match std::str::from_utf8(buf).map(redact) {
            Ok(Cow::Owned(clean)) => self.0.write_all(clean.as_bytes()),
            _ => self.0.write_all(buf),
        }?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// Makes [`Redacting`] writers around `M`'s.
#[derive(Clone)]
pub struct MakeRedacting<M>(pub M);

impl<'a, M: tracing_subscriber::fmt::MakeWriter<'a>> tracing_subscriber::fmt::MakeWriter<'a>
    for MakeRedacting<M>
{
    type Writer = Redacting<M::Writer>;

    fn make_writer(&'a self) -> Self::Writer {
        Redacting(self.0.make_writer())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_remembered_secret_is_hidden_and_a_short_one_is_not_looked_for() {
        remember(["core-secret-0001".to_owned(), "short".to_owned()]);
        let clean = redact("said core-secret-0001 and short");
        assert_eq!(clean, "said *** and short");
        assert!(matches!(redact("nothing secret here"), Cow::Borrowed(_)));
    }
}
