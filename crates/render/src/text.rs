//! What leaves an engine as text (an exception's message, a `console` line) is the script's
//! to choose: it is made one bounded line before it reaches a log or an error, so a bundle can
//! neither forge log lines (a newline, an escape sequence) nor fill the log.

/// The longest exception message kept, in characters.
pub(super) const MAX_MESSAGE: usize = 800;
/// The longest `console` line kept, in characters.
pub(super) const MAX_CONSOLE: usize = 1000;

/// `text` on one line: tabs and line breaks become spaces, every other control character is
/// dropped, and what is past `max` characters becomes `…`.
pub(super) fn one_line(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max * 4));
    let mut kept = 0;
    for c in text.chars() {
        let c = match c {
            '\t' | '\n' | '\r' | '\u{2028}' | '\u{2029}' => ' ',
            c if c.is_control() => continue,
            c => c,
        };
        if kept == max {
            out.push('…');
            break;
        }
        out.push(c);
        kept += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_go_and_the_length_is_bounded() {
        assert_eq!(
            one_line("页面\n坏了\t\u{1b}[31m!\u{7}", 100),
            "页面 坏了 [31m!"
        );
        assert_eq!(one_line("铁路货运", 2), "铁路…");
        assert_eq!(one_line("铁路", 2), "铁路");
        assert_eq!(one_line("a\u{2028}b\u{85}c", 10), "a bc");
    }
}
