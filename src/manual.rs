//! `icp2c man`: the whole command line on one manual page (part of the
//! `icp2c` binary, not of the library).
//!
//! clap_mangen renders one page per command and refers from the main page
//! to `icp2c-run(1)` and the like, pages that an install would have to
//! write one by one. This page instead carries every subcommand as a
//! section of its own (`ICP2C RUN`, …) with its synopsis, description and
//! options, so `icp2c man > icp2c.1` installs everything `man icp2c`
//! needs.

use clap_mangen::Man;
use roff::{Roff, bold, roman};
use std::io;

/// Renders the page (roff) for `command`, the top-level clap command.
///
/// # Errors
/// A section that clap_mangen cannot render.
pub fn render(mut command: clap::Command) -> io::Result<Vec<u8>> {
    command.build();
    let man = Man::new(command.clone());
    let mut page = Vec::new();
    man.render_title(&mut page)?;
    let preamble = Roff::new().render();
    // Each section clap_mangen renders starts with the same preamble; the
    // page needs it once, at the top.
    let section = |render: &dyn Fn(&mut Vec<u8>) -> io::Result<()>| -> io::Result<Vec<u8>> {
        let mut text = Vec::new();
        render(&mut text)?;
        Ok(text
            .strip_prefix(preamble.as_bytes())
            .map(<[u8]>::to_vec)
            .unwrap_or(text))
    };
    page.extend(section(&|w| man.render_name_section(w))?);
    page.extend(section(&|w| man.render_synopsis_section(w))?);
    page.extend(section(&|w| man.render_description_section(w))?);
    page.extend(section(&|w| man.render_options_section(w))?);

    let subcommands: Vec<&clap::Command> = command
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
        .collect();
    let mut list = Roff::new();
    list.control("SH", ["COMMANDS"]);
    for sub in &subcommands {
        list.control("TP", []);
        list.text([bold(full_name(sub))]);
        if let Some(about) = sub.get_about() {
            let about = about.to_string();
            let first = about.split(" Example:").next().unwrap_or_default();
            list.text([roman(format!("{first} See {} below.", heading(sub)))]);
        }
    }
    page.extend(section(&|w| list.to_writer(w))?);

    for sub in subcommands {
        let mut head = Roff::new();
        head.control("SH", [heading(sub).as_str()]);
        page.extend(section(&|w| head.to_writer(w))?);
        // The global options (-O, --color, …) are described once, above.
        let own = sub
            .clone()
            .mut_args(|a| if a.is_global_set() { a.hide(true) } else { a });
        let man = Man::new(own);
        for render in [
            Man::render_synopsis_section,
            Man::render_description_section,
            Man::render_options_section,
        ] {
            // The subcommand's own sections become subsections of its
            // section (`.SS SYNOPSIS` under `.SH "ICP2C RUN"`).
            let text = section(&|w| render(&man, w))?;
            for line in String::from_utf8_lossy(&text).lines() {
                match line.strip_prefix(".SH ") {
                    Some(title) => page.extend(format!(".SS {title}\n").bytes()),
                    None => page.extend(format!("{line}\n").bytes()),
                }
            }
        }
    }
    if let Some(after) = command.get_after_help() {
        let extra = after_help(&after.to_string());
        page.extend(section(&|w| extra.to_writer(w))?);
    }
    page.extend(section(&|w| man.render_version_section(w))?);
    Ok(page)
}

/// `icp2c run`: the name a user types.
fn full_name(sub: &clap::Command) -> String {
    sub.get_bin_name()
        .map_or_else(|| format!("icp2c {}", sub.get_name()), str::to_string)
}

/// The section title of a subcommand: `ICP2C RUN`.
fn heading(sub: &clap::Command) -> String {
    full_name(sub).to_uppercase()
}

/// The text after `--help`'s options as sections of the page: a paragraph
/// that starts with `Title:` becomes the section `TITLE` (its indented
/// lines, the examples, kept as they are laid out); the other paragraphs
/// go into `NOTES`.
fn after_help(text: &str) -> Roff {
    let mut roff = Roff::new();
    let mut notes = Vec::new();
    for paragraph in text.split("\n\n") {
        let mut lines = paragraph.lines();
        let first = lines.next().unwrap_or_default();
        match first.strip_suffix(':').or_else(|| {
            first
                .split_once(": ")
                .map(|(title, _)| title)
                .filter(|t| t.chars().all(|c| c.is_alphabetic() || c == ' '))
        }) {
            Some(title) if !title.contains(',') => {
                roff.control("SH", [title.to_uppercase().as_str()]);
                let rest: Vec<&str> = lines.collect();
                if first.ends_with(':') {
                    roff.control("nf", []);
                    for line in rest {
                        roff.text([roman(line)]);
                    }
                    roff.control("fi", []);
                } else {
                    let body = first.split_once(": ").map_or("", |(_, b)| b);
                    let mut all = vec![body];
                    all.extend(rest);
                    roff.text([roman(all.join(" "))]);
                }
            }
            _ => notes.push(paragraph.lines().collect::<Vec<_>>().join(" ")),
        }
    }
    if !notes.is_empty() {
        roff.control("SH", ["NOTES"]);
        for (i, note) in notes.iter().enumerate() {
            if i > 0 {
                roff.control("PP", []);
            }
            roff.text([roman(note.as_str())]);
        }
    }
    roff
}
