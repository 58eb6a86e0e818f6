//! The one-line prompts: threshold, Jaccard filter, jump to an id, find in the viewer's texts.

use crate::tui::app::{App, Overlay, Prompt, PromptKey, PromptKind};
use crate::tui::list::JaccardFilter;

impl App {
    pub(super) fn open_prompt(&mut self, kind: PromptKind) {
        self.overlay = Overlay::Prompt(Prompt {
            kind,
            input: String::new(),
        });
    }

    pub(super) fn on_prompt_key(&mut self, key: PromptKey) {
        let Overlay::Prompt(prompt) = &mut self.overlay else {
            return;
        };
        match key {
            PromptKey::Char(c) => prompt.input.push(c),
            PromptKey::Backspace => {
                prompt.input.pop();
            }
            PromptKey::ClearToStart => prompt.input.clear(),
            PromptKey::DeleteWord => {
                let kept = prompt
                    .input
                    .trim_end()
                    .trim_end_matches(|c: char| !c.is_whitespace());
                prompt.input.truncate(kept.len());
            }
            PromptKey::Cancel => self.overlay = Overlay::None,
            PromptKey::Submit => {
                let prompt = prompt.clone();
                self.overlay = Overlay::None;
                self.submit_prompt(prompt);
            }
        }
    }

    pub(super) fn submit_prompt(&mut self, prompt: Prompt) {
        let input = prompt.input.trim();
        match prompt.kind {
            PromptKind::Threshold => match input.parse::<f64>() {
                Ok(t) if (0.0..=1.0).contains(&t) => {
                    self.set_threshold(t);
                    self.say(format!("threshold t = {t}"));
                }
                _ => self.complain(format!(
                    "threshold must be a number in [0, 1], got {input:?}"
                )),
            },
            PromptKind::Filter => match parse_range(input) {
                Some((low, high)) => self.set_filter(JaccardFilter {
                    low,
                    high,
                    high_inclusive: true,
                    bin: None,
                }),
                None => self.complain(format!(
                    "not a Jaccard range: {input:?} (write e.g. 0.5-0.8, or 0.7 for ≥ 0.7)"
                )),
            },
            PromptKind::Jump => self.jump_to(input),
            PromptKind::Search => self.search_texts(input),
        }
    }
}

/// Parses `0.5-0.8`, `0.5..0.8`, `0.5 0.8`, `0.5,0.8` or a single lower bound `0.7`.
fn parse_range(input: &str) -> Option<(f64, f64)> {
    let spaced = input.replace("..", " ");
    let parts: Vec<&str> = spaced
        .split(|c: char| c == '-' || c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .collect();
    let nums: Vec<f64> = parts
        .iter()
        .map(|s| s.trim().parse().ok())
        .collect::<Option<_>>()?;
    let (low, high) = match nums.as_slice() {
        [x] => (*x, 1.0),
        [x, y] => (*x, *y),
        _ => return None,
    };
    ((0.0..=1.0).contains(&low) && (0.0..=1.0).contains(&high) && low <= high)
        .then_some((low, high))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_parse() {
        assert_eq!(parse_range("0.5-0.8"), Some((0.5, 0.8)));
        assert_eq!(parse_range("0.5..0.8"), Some((0.5, 0.8)));
        assert_eq!(parse_range(" 0.2 0.4 "), Some((0.2, 0.4)));
        assert_eq!(parse_range("0.2,0.4"), Some((0.2, 0.4)));
        assert_eq!(parse_range("0.7"), Some((0.7, 1.0)));
        assert_eq!(parse_range("0.8-0.5"), None);
        assert_eq!(parse_range("1.5"), None);
        assert_eq!(parse_range("abc"), None);
        assert_eq!(parse_range(""), None);
    }
}
