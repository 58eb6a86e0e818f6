//! The commands the documentation shows keep working, and its links lead somewhere. Every `lshscope …` line of a shell code
//! block in README.md and docs/*.md is parsed by the binary's own clap definition
//! (`lshscope::cli::Cli`), values included; every inline `lshscope …` span (where FILE, TOOL
//! and the like stand for values) must name a subcommand that exists and only options that
//! subcommand accepts. A failure names the file, the line and what is wrong.

use std::path::{Path, PathBuf};

use clap::CommandFactory;

/// A command found in a page: where, and whether it is a whole line of a shell block (parsed
/// in full) or an inline span (options checked, values may be placeholders).
#[derive(Debug, PartialEq)]
struct Shown {
    line: usize,
    words: Vec<String>,
    in_block: bool,
}

/// The language tags of fenced blocks that hold shell commands (an untagged block counts).
fn is_shell_block(tag: &str) -> bool {
    matches!(tag, "" | "sh" | "bash" | "shell" | "console" | "zsh")
}

/// Splits a shell command into words, honouring quotes, and stops at what ends the command
/// lshscope sees: a pipe, a redirection, `&&`, `;` or a comment.
fn shell_words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = command.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                in_word = true;
                for q in chars.by_ref() {
                    if q == c {
                        break;
                    }
                    word.push(q);
                }
            }
            '\\' => {
                // `\|` in a Markdown table is a pipe; elsewhere the next character is literal.
                match chars.next() {
                    Some('|') => break,
                    Some(next) => {
                        in_word = true;
                        word.push(next);
                    }
                    None => {}
                }
            }
            '|' | ';' | '&' => break,
            '#' if !in_word => break,
            '>' | '<' => {
                // A redirection's file descriptor (`2>`) is not an argument.
                if in_word && word.chars().all(|c| c.is_ascii_digit()) {
                    in_word = false;
                }
                break;
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// The `lshscope` commands of one Markdown page. Inline, the prose often drops the program's
/// name (`dedup --unverified`, `scan -t 0.8`): a span that starts with one of `subcommands` and
/// uses an option counts too.
fn commands_in(markdown: &str, subcommands: &[String]) -> Vec<Shown> {
    let mut shown = Vec::new();
    let mut block: Option<&str> = None; // the open fence's tag
    let mut pending: Option<(usize, String)> = None; // a block line continued with `\`
    let mut prose = String::new(); // the text outside blocks, lines joined, for inline spans
    let mut prose_lines = Vec::new(); // the page line each byte of `prose` came from
    for (i, line) in markdown.lines().enumerate() {
        let number = i + 1;
        let trimmed = line.trim_start();
        if let Some(tag) = trimmed.strip_prefix("```") {
            block = match block {
                None => Some(tag.trim()),
                Some(_) => None,
            };
            continue;
        }
        match block {
            Some(tag) if is_shell_block(tag) => {
                let (start, mut text) = pending.take().unwrap_or((number, String::new()));
                if let Some(continued) = line.trim_end().strip_suffix('\\') {
                    text.push_str(continued);
                    text.push(' ');
                    pending = Some((start, text));
                    continue;
                }
                text.push_str(line);
                let words = shell_words(&text);
                if words.first().is_some_and(|w| w == "lshscope") {
                    shown.push(Shown {
                        line: start,
                        words,
                        in_block: true,
                    });
                }
            }
            Some(_) => {}
            None => {
                prose.push_str(line);
                prose.push('\n');
                prose_lines.resize(prose.len(), number);
            }
        }
    }
    // Inline spans may run over a line break; a paragraph's spans are found in the joined text.
    let mut rest = prose.as_str();
    let mut offset = 0;
    while let Some(open) = rest.find('`') {
        let ticks = rest[open..].chars().take_while(|&c| c == '`').count();
        let fence = &rest[open..open + ticks];
        let body_start = open + ticks;
        let Some(len) = rest[body_start..].find(fence) else {
            break;
        };
        let body = rest[body_start..body_start + len].replace('\n', " ");
        let mut words = shell_words(&body);
        if words.first().is_some_and(|w| subcommands.contains(w))
            && words.iter().any(|w| w.starts_with('-'))
        {
            words.insert(0, "lshscope".to_string());
        }
        if words.first().is_some_and(|w| w == "lshscope") {
            shown.push(Shown {
                line: prose_lines[offset + open],
                words,
                in_block: false,
            });
        }
        let next = body_start + len + ticks;
        offset += next;
        rest = &rest[next..];
    }
    shown
}

/// What is wrong with `words` (`lshscope` first) under `root`, if anything.
fn problem(root: &clap::Command, shown: &Shown) -> Option<String> {
    // The subcommand: as many words as name nested subcommands.
    let mut command = root;
    let mut path = vec!["lshscope".to_string()];
    let mut rest = &shown.words[1..];
    while let Some(word) = rest.first() {
        match command.find_subcommand(word) {
            Some(sub) => {
                command = sub;
                path.push(word.clone());
                rest = &rest[1..];
            }
            None => break,
        }
    }
    let name = path.join(" ");
    if command.has_subcommands() && !rest.is_empty() && !rest[0].starts_with('-') && shown.in_block
    {
        return Some(format!("`{name}` has no subcommand `{}`", rest[0]));
    }
    let longs: Vec<&str> = command
        .get_arguments()
        .flat_map(|a| a.get_long_and_visible_aliases().unwrap_or_default())
        .chain(["help", "version"])
        .collect();
    let shorts: Vec<char> = command
        .get_arguments()
        .flat_map(|a| a.get_short_and_visible_aliases().unwrap_or_default())
        .chain(['h', 'V'])
        .collect();
    for word in rest {
        if word == "-" || word == "--" {
            continue;
        }
        if let Some(long) = word.strip_prefix("--") {
            let long = long.split('=').next().unwrap_or_default();
            // Prose names alternatives as `--pairs/--similarities`.
            for alternative in long.split("/--") {
                if !longs.contains(&alternative) {
                    return Some(format!("`{name}` has no option `--{alternative}`"));
                }
            }
        } else if let Some(short) = word.strip_prefix('-') {
            // `-b`, or clustered flags; a negative number is a value.
            if short.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
                continue;
            }
            let flag = short.chars().next().unwrap();
            if !shorts.contains(&flag) {
                return Some(format!("`{name}` has no option `-{flag}`"));
            }
        }
    }
    if shown.in_block {
        // The whole line, values included, as the binary would parse it.
        if let Err(e) = root.clone().try_get_matches_from(&shown.words) {
            let message = e.render().to_string();
            let first = message.lines().next().unwrap_or_default().to_string();
            return Some(format!("the binary refuses it: {first}"));
        }
    }
    None
}

fn subcommands(root: &clap::Command) -> Vec<String> {
    root.get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect()
}

fn pages() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ holds the manual")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

#[test]
fn every_documented_command_uses_a_subcommand_and_options_that_exist() {
    let root = lshscope::cli::Cli::command();
    let base = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut problems = Vec::new();
    let (mut in_blocks, mut inline) = (0, 0);
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let name = page.strip_prefix(base).unwrap().display().to_string();
        for shown in commands_in(&text, &subcommands(&root)) {
            if shown.in_block {
                in_blocks += 1;
            } else {
                inline += 1;
            }
            if let Some(p) = problem(&root, &shown) {
                problems.push(format!(
                    "{name}:{}: {p}\n    {}",
                    shown.line,
                    shown.words.join(" ")
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} documented command(s) do not match the binary's options:\n{}",
        problems.len(),
        problems.join("\n")
    );
    // The pages hold many of both; finding few means the extraction broke, not the docs.
    assert!(
        in_blocks >= 40 && inline >= 40,
        "found {in_blocks} commands in blocks and {inline} inline"
    );
}

#[test]
fn the_checker_names_the_page_line_and_unknown_option() {
    let root = lshscope::cli::Cli::command();
    let page = "Intro with `lshscope scan FILE --no-such-flag` inline.\n\n```sh\n# a comment\n\
                lshscope tune -t 0.8 \\\n    --budget 10 | head\nlshscope scan x.csv -Z\n\
                lshscope index nope x\nlshscope scan x.csv --threshold high\n```\n\n\
                ```python\nlshscope --not-checked\n```\n\nA span over a line break: `lshscope\n\
                dedup x.csv --unverified`. Without the name: `tune --for nobody`, `scan`.\n";
    let shown = commands_in(page, &subcommands(&root));
    let found: Vec<(usize, bool, String)> = shown
        .iter()
        .map(|s| (s.line, s.in_block, s.words.join(" ")))
        .collect();
    assert_eq!(
        found,
        [
            (5, true, "lshscope tune -t 0.8 --budget 10".to_string()),
            (7, true, "lshscope scan x.csv -Z".to_string()),
            (8, true, "lshscope index nope x".to_string()),
            (9, true, "lshscope scan x.csv --threshold high".to_string()),
            (1, false, "lshscope scan FILE --no-such-flag".to_string()),
            (16, false, "lshscope dedup x.csv --unverified".to_string()),
            (17, false, "lshscope tune --for nobody".to_string()),
        ]
    );
    let problems: Vec<Option<String>> = shown.iter().map(|s| problem(&root, s)).collect();
    assert_eq!(problems[0], None);
    assert_eq!(
        problems[1].as_deref(),
        Some("`lshscope scan` has no option `-Z`")
    );
    assert_eq!(
        problems[2].as_deref(),
        Some("`lshscope index` has no subcommand `nope`")
    );
    assert!(
        problems[3]
            .as_deref()
            .is_some_and(|p| p.starts_with("the binary refuses it") && p.contains("high")),
        "{problems:?}"
    );
    assert_eq!(
        problems[4].as_deref(),
        Some("`lshscope scan` has no option `--no-such-flag`")
    );
    assert_eq!(problems[5], None);
    // Inline, values may be placeholders: only the option is checked.
    assert_eq!(problems[6], None);
}

/// GitHub's anchor for a heading: lowercase, punctuation dropped, spaces to hyphens.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(markdown: &str) -> Vec<String> {
    let mut in_block = false;
    let mut found = Vec::new();
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
        } else if !in_block && line.starts_with('#') {
            found.push(anchor(line.trim_start_matches('#')));
        }
    }
    found
}

/// `line` with its `inline code` spans removed.
fn without_code_spans(line: &str) -> String {
    line.split('`')
        .enumerate()
        .filter(|(k, _)| k % 2 == 0)
        .map(|(_, part)| part)
        .collect()
}

/// Every relative link of README.md and docs/*.md names a file that exists and, with `#…`,
/// a heading of that page: pages moved or headings renamed leave no dead links.
#[test]
fn every_relative_link_and_anchor_resolves() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut problems = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let name = page.strip_prefix(base).unwrap().display().to_string();
        let mut in_fence = false;
        for (i, line) in text.lines().enumerate() {
            // Code shows text, not links: fenced blocks and `inline code` are skipped.
            if line.trim_start().starts_with("```") {
                in_fence = !in_fence;
                continue;
            }
            if in_fence {
                continue;
            }
            let prose = without_code_spans(line);
            let mut rest = prose.as_str();
            while let Some(at) = rest.find("](") {
                let after = &rest[at + 2..];
                let Some(end) = after.find(')') else { break };
                let target = &after[..end];
                rest = &after[end..];
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                checked += 1;
                let (file, fragment) = target.split_once('#').unwrap_or((target, ""));
                let linked = if file.is_empty() {
                    page.clone()
                } else {
                    page.parent().unwrap().join(file)
                };
                if !linked.exists() {
                    problems.push(format!("{name}:{}: no file {file}", i + 1));
                } else if !fragment.is_empty() && linked.extension().is_some_and(|e| e == "md") {
                    let headings = anchors(&std::fs::read_to_string(&linked).unwrap());
                    if !headings.iter().any(|h| h == fragment) {
                        problems.push(format!(
                            "{name}:{}: {file} has no heading #{fragment} (it has: {})",
                            i + 1,
                            headings.join(", ")
                        ));
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "dead links:\n{}", problems.join("\n"));
    assert!(checked >= 30, "found only {checked} relative links");
    assert_eq!(anchor("`lshscope dedup`"), "lshscope-dedup");
    assert_eq!(
        anchor("Auditing another tool's result"),
        "auditing-another-tools-result"
    );
}
