//! What a Redis server may send, checked before the redis client buffers it. The client's
//! decoder keeps whatever a reply has sent until the reply is whole, and parses numbers of any
//! length: a hostile or spoofed server on a plain `redis://` address sent an endless line (RSS
//! 2.2 GiB in 20 s) and a number of three million digits (every request ~16 s). The gateway
//! writes entries of at most 16 MiB (`shared.rs`), so nothing it reads back is larger; a reply
//! past these bounds ends the connection with an error, and the tier goes off until a probe
//! connects again.
//!
//! [`Bounded`] reads through a [`Checker`], which follows RESP2 and RESP3's framing byte by byte
//! (types, lengths, counts, nesting) without keeping any of it.

use std::{
    io,
    pin::Pin,
    task::{Context, Poll},
};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The most one reply may hold, all of it together: an entry (16 MiB) and its fields.
const MAX_REPLY: usize = 32 * 1024 * 1024;
/// The most one bulk string may hold.
const MAX_BULK: usize = 17 * 1024 * 1024;
/// The longest simple string or error line.
const MAX_LINE: usize = 64 * 1024;
/// The longest number (integers, doubles, booleans, nulls, big numbers).
const MAX_NUMBER: usize = 64;
/// The most elements of one array, set, map (pairs counted twice) or push.
const MAX_ELEMENTS: usize = 1 << 20;
/// The deepest nesting of aggregates.
const MAX_DEPTH: usize = 32;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Line {
    /// `+` `-`: text.
    Text,
    /// `:` `,` `#` `_` `(`: a number or a mark.
    Number,
    /// `$` `!` `=`: the length of a bulk string that follows.
    BulkLength,
    /// `*` `~` `>`: the count of an aggregate.
    Count,
    /// `%`: the count of a map's pairs.
    Pairs,
    /// `|`: an attribute's pairs, followed by the value they describe.
    Attribute,
}

#[derive(Debug)]
enum State {
    /// A value's type byte is next.
    Type,
    /// Within a line: its kind, its length so far, its number so far, whether `\r` was seen.
    Line {
        kind: Line,
        len: usize,
        number: Option<i64>,
        negative: bool,
        cr: bool,
    },
    /// Within a bulk string: bytes left, its `\r\n` included.
    Bulk(usize),
}

/// Follows the framing of what a server sends; an error when it passes a bound or is no RESP.
#[derive(Debug)]
pub struct Checker {
    state: State,
    /// Elements still to come in each open aggregate, outermost first.
    open: Vec<usize>,
    /// Bytes of the reply under way.
    reply: usize,
}

impl Default for Checker {
    fn default() -> Self {
        Self {
            state: State::Type,
            open: Vec::new(),
            reply: 0,
        }
    }
}

fn refused(why: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("the Redis server sent {why}"),
    )
}

impl Checker {
    /// Checks `bytes`, the next the server sent.
    pub fn check(&mut self, bytes: &[u8]) -> io::Result<()> {
        let mut at = 0;
        while at < bytes.len() {
            match &mut self.state {
                State::Bulk(left) => {
                    let take = (*left).min(bytes.len() - at);
                    *left -= take;
                    let whole = *left == 0;
                    at += take;
                    self.count(take)?;
                    if whole {
                        self.state = State::Type;
                        self.done();
                    }
                }
                State::Type => {
                    let kind = match bytes[at] {
                        b'+' | b'-' => Line::Text,
                        b':' | b',' | b'#' | b'_' | b'(' => Line::Number,
                        b'$' | b'!' | b'=' => Line::BulkLength,
                        b'*' | b'~' | b'>' => Line::Count,
                        b'%' => Line::Pairs,
                        b'|' => Line::Attribute,
                        _ => return Err(refused("a byte that starts no RESP value")),
                    };
                    self.state = State::Line {
                        kind,
                        len: 0,
                        number: None,
                        negative: false,
                        cr: false,
                    };
                    at += 1;
                    self.count(1)?;
                }
                State::Line {
                    kind,
                    len,
                    number,
                    negative,
                    cr,
                } => {
                    let byte = bytes[at];
                    at += 1;
                    self.reply += 1;
                    if self.reply > MAX_REPLY {
                        return Err(refused("a reply larger than 32 MiB"));
                    }
                    if *cr {
                        if byte != b'\n' {
                            return Err(refused("a line with a bare carriage return"));
                        }
                        let (kind, number, negative) = (*kind, *number, *negative);
                        self.state = State::Type;
                        self.ended(kind, number, negative)?;
                        continue;
                    }
                    if byte == b'\r' {
                        *cr = true;
                        continue;
                    }
                    *len += 1;
                    let limit = if *kind == Line::Text {
                        MAX_LINE
                    } else {
                        MAX_NUMBER
                    };
                    if *len > limit {
                        return Err(refused(
                            "a line past its bound (an endless line, a huge number)",
                        ));
                    }
                    if !matches!(*kind, Line::Text | Line::Number) {
                        match byte {
                            b'-' if *len == 1 => *negative = true,
                            b'0'..=b'9' => {
                                *number = Some(
                                    number
                                        .unwrap_or(0)
                                        .saturating_mul(10)
                                        .saturating_add(i64::from(byte - b'0')),
                                );
                            }
                            _ => return Err(refused("a length that is no number")),
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn count(&mut self, bytes: usize) -> io::Result<()> {
        self.reply += bytes;
        if self.reply > MAX_REPLY {
            return Err(refused("a reply larger than 32 MiB"));
        }
        Ok(())
    }

    /// A line of `kind` ended, with the number it held.
    fn ended(&mut self, kind: Line, number: Option<i64>, negative: bool) -> io::Result<()> {
        let value = match (kind, number) {
            (Line::Text | Line::Number, _) => return self.value_done(),
            (_, None) => return Err(refused("a length that is no number")),
            // -1: a null (RESP2's null bulk string and array).
            (_, Some(1)) if negative => return self.value_done(),
            (_, Some(_)) if negative => return Err(refused("a negative length")),
            (_, Some(n)) => usize::try_from(n).unwrap_or(usize::MAX),
        };
        match kind {
            Line::BulkLength => {
                if value > MAX_BULK {
                    return Err(refused("a string larger than 17 MiB"));
                }
                self.state = State::Bulk(value + 2);
                Ok(())
            }
            Line::Count | Line::Pairs | Line::Attribute => {
                let elements = match kind {
                    Line::Count => value,
                    Line::Pairs => value.saturating_mul(2),
                    // The attribute's pairs, then the value they describe in the same place.
                    _ => value.saturating_mul(2).saturating_add(1),
                };
                if elements > MAX_ELEMENTS {
                    return Err(refused("an aggregate of more than a million elements"));
                }
                if elements == 0 {
                    return self.value_done();
                }
                if self.open.len() >= MAX_DEPTH {
                    return Err(refused("aggregates nested deeper than 32"));
                }
                self.open.push(elements);
                Ok(())
            }
            Line::Text | Line::Number => unreachable!("handled above"),
        }
    }

    fn value_done(&mut self) -> io::Result<()> {
        self.done();
        Ok(())
    }

    /// A value is whole: one element fewer in the aggregate around it, which may be whole too.
    fn done(&mut self) {
        loop {
            let Some(left) = self.open.last_mut() else {
                // A reply is whole.
                self.reply = 0;
                return;
            };
            *left -= 1;
            if *left > 0 {
                return;
            }
            self.open.pop();
        }
    }
}

/// A connection to Redis whose incoming bytes pass a [`Checker`].
pub struct Bounded<S> {
    inner: S,
    checker: Checker,
}

impl<S> Bounded<S> {
    pub fn new(inner: S) -> Self {
        Self {
            inner,
            checker: Checker::default(),
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Bounded<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let this = &mut *self;
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                this.checker.check(&buf.filled()[before..])?;
                Poll::Ready(Ok(()))
            }
            other => other,
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Bounded<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, data)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(parts: &[&[u8]]) -> io::Result<()> {
        let mut checker = Checker::default();
        for part in parts {
            checker.check(part)?;
        }
        Ok(())
    }

    #[test]
    fn what_redis_answers_passes_in_any_cut() {
        let replies: &[&[u8]] = &[
            b"+PONG\r\n",
            b"-ERR unknown command\r\n",
            b":42\r\n",
            b"$5\r\nhello\r\n",
            b"$-1\r\n",
            b"*-1\r\n",
            b"*0\r\n",
            b"*2\r\n$3\r\nfoo\r\n*2\r\n:1\r\n$0\r\n\r\n",
            b"%2\r\n+a\r\n:1\r\n+b\r\n*1\r\n_\r\n",
            b"|1\r\n+ttl\r\n:3\r\n$2\r\nok\r\n",
            b">3\r\n$7\r\nmessage\r\n$5\r\npurge\r\n$4\r\n{}{}\r\n",
            b",3.25\r\n#t\r\n(12345678901234567890\r\n",
            b"=8\r\ntxt:abcd\r\n~1\r\n!3\r\nerr\r\n",
        ];
        let all: Vec<u8> = replies.concat();
        check(&[&all]).unwrap();
        // Cut at every byte.
        let mut checker = Checker::default();
        for byte in &all {
            checker.check(std::slice::from_ref(byte)).unwrap();
        }
        assert!(checker.open.is_empty() && matches!(checker.state, State::Type));
        assert_eq!(checker.reply, 0);
    }

    #[test]
    fn an_endless_line_a_huge_number_and_huge_lengths_are_refused() {
        let line = [b"+".as_slice(), &vec![b'a'; MAX_LINE + 1]].concat();
        assert!(check(&[&line]).is_err());
        let number = [b"(".as_slice(), &vec![b'7'; 3_000_000]].concat();
        assert!(check(&[&number]).is_err());
        assert!(check(&[b"$300000000\r\n"]).is_err());
        assert!(check(&[b"*4294967295\r\n"]).is_err());
        assert!(check(&[b"%600000\r\n"]).is_err());
        assert!(check(&[b"$-7\r\n"]).is_err());
        assert!(check(&[b"$12a\r\n"]).is_err());
        assert!(check(&[b"?what\r\n"]).is_err());
        assert!(check(&["*1\r\n".repeat(40).as_bytes()]).is_err());
        // A reply of 40 strings of 1 MiB: each within its bound, the whole past 32 MiB.
        let mut checker = Checker::default();
        checker.check(b"*40\r\n").unwrap();
        let piece = [b"$1048576\r\n".as_slice(), &vec![b'x'; 1 << 20], b"\r\n"].concat();
        let refused = (0..40).any(|_| checker.check(&piece).is_err());
        assert!(refused);
    }

    #[tokio::test]
    async fn a_connection_that_sends_too_much_ends_in_an_error() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let (mut server, client) = tokio::io::duplex(64 * 1024);
        let mut bounded = Bounded::new(client);
        tokio::spawn(async move {
            server.write_all(b"+").await.unwrap();
            let chunk = vec![b'a'; 16 * 1024];
            while server.write_all(&chunk).await.is_ok() {}
        });
        let mut read = Vec::new();
        let err = bounded.read_to_end(&mut read).await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        // What was taken before the read that passed the bound (read_to_end grows its reads).
        assert!(read.len() <= 4 * MAX_LINE, "{}", read.len());
    }
}
