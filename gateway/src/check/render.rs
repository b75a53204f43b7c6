//! The report as people read it.

use super::*;

pub(super) fn plural(n: usize, one: &str) -> String {
    format!("{n} {one}{}", if n == 1 { "" } else { "s" })
}

/// The report as a table for a terminal: each call with its status, latency and what was found,
/// its findings indented under it, and the count of errors and warnings last.
pub fn render(report: &Report) -> String {
    let mut out = format!("upstream {}\n\n", report.upstream);
    let width = report
        .checks
        .iter()
        .map(|c| c.endpoint.chars().count())
        .max()
        .unwrap_or(8)
        .max(8);
    out.push_str(&format!(
        "{:<width$}  {:<11}  {:>8}  {}\n",
        "ENDPOINT", "STATUS", "LATENCY", "RESULT"
    ));
    for check in &report.checks {
        let latency = if check.status == "-" {
            "-".to_owned()
        } else {
            format!("{} ms", check.latency_ms)
        };
        let result = if check.summary.is_empty() {
            "-"
        } else {
            check.summary.as_str()
        };
        out.push_str(
            format!(
                "{:<width$}  {:<11}  {latency:>8}  {result}\n",
                check.endpoint, check.status
            )
            .trim_end(),
        );
        out.push('\n');
        for problem in &check.problems {
            let head = format!("  {} {:<8} ", problem.level.mark(), problem.level.word());
            let pad = " ".repeat(head.chars().count());
            out.push_str(&format!("{head}{}\n", problem.what));
            if !problem.at.is_empty() {
                out.push_str(&format!("{pad}where:  {}\n", problem.at));
            }
            if !problem.key.is_empty() {
                out.push_str(&format!("{pad}change: {}\n", problem.key));
            }
            if let Some(fix) = &problem.fix {
                for (i, line) in fix.lines().enumerate() {
                    let label = if i == 0 { "fix:   " } else { "       " };
                    out.push_str(&format!("{pad}{label} {line}\n"));
                }
            }
        }
    }
    out.push('\n');
    out.push_str(match (report.errors, report.warnings) {
        (0, 0) => "Everything maps: the portal can run on this CMS.\n",
        (0, _) => "The portal can run on this CMS; the warnings say what it will lack.\n",
        _ => "The portal cannot run on this CMS until the errors are fixed.\n",
    });
    out.push_str(&format!(
        "{}, {}\n",
        plural(report.errors, "error"),
        plural(report.warnings, "warning")
    ));
    out
}
