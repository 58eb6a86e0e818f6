//! The edits that turn an ad into its near-duplicates: small ones (typography, a date, a
//! reordered list) and large ones (a changed section, another company).

use super::*;

/// Straight quotes and apostrophes made curly, as a word processor does.
pub(super) fn typographic(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    let mut open = true;
    for c in s.chars() {
        match c {
            '\'' => out.push('’'),
            '"' => {
                out.push(if open { '“' } else { '”' });
                open = !open;
            }
            _ => out.push(c),
        }
    }
    out
}

/// One edit a reposter makes.
#[derive(Debug, Clone)]
pub(super) enum Edit {
    Redate((u8, u8)),
    Reference(u32),
    Pay((u32, u32)),
    Workplace(usize),
    Tag(&'static str),
    /// Two items of a section swap places (a sentence moved).
    Swap(Section, usize, usize),
    /// An item rewritten (or, when empty, dropped).
    Replace(Section, usize, String),
    Add(Section, String),
    Blurb(String),
    Summary(&'static str),
    Eeo(Option<String>),
    Apply(usize),
    Contract(usize),
}

impl Edit {
    pub(super) fn apply(&self, ad: &mut Ad) {
        match self {
            Edit::Redate(d) => ad.posted = *d,
            Edit::Reference(r) => ad.reference = *r,
            Edit::Pay(p) => ad.pay = *p,
            Edit::Workplace(w) => ad.workplace = *w,
            Edit::Tag(t) => ad.tag = Some(t),
            Edit::Swap(section, i, j) => {
                let list = ad.list_mut(*section);
                if *i < list.len() && *j < list.len() {
                    list.swap(*i, *j);
                }
            }
            Edit::Replace(section, i, text) => {
                if let Some(slot) = ad.list_mut(*section).get_mut(*i) {
                    slot.clone_from(text);
                }
            }
            Edit::Add(section, text) => {
                let list = ad.list_mut(*section);
                let at = (text.len() * 7) % (list.len() + 1);
                list.insert(at, text.clone());
            }
            Edit::Blurb(text) => ad.blurb = Some(text.clone()),
            Edit::Summary(text) => ad.summary = text,
            Edit::Eeo(text) => ad.eeo.clone_from(text),
            Edit::Apply(a) => ad.apply = *a,
            Edit::Contract(c) => ad.contract = *c,
        }
    }
}

/// The small edits of `ad` (date, reference, pay, workplace, title tag, sentences moved) and
/// the larger ones (items rewritten or added, blurb, summary, closing lines), each list in
/// random order. Applied in order, they take the ad further and further from the original.
pub(super) fn edits_of(draw: &mut Draw, ad: &Ad, companies: &[Company]) -> (Vec<Edit>, Vec<Edit>) {
    let f = &FIELDS[ad.field];
    // Every edit changes the text: a new date, reference and tag differ from the old.
    let mut posted = draw_date(draw);
    while posted == ad.posted {
        posted = draw_date(draw);
    }
    let reference = 1000 + (ad.reference - 1000 + 1 + draw.below(8999) as u32) % 9000;
    let tags: Vec<&'static str> = words::TITLE_TAGS
        .iter()
        .copied()
        .filter(|&t| Some(t) != ad.tag)
        .collect();
    let mut small = vec![
        Edit::Redate(posted),
        Edit::Reference(reference),
        Edit::Pay({
            let (low, high) = ad.pay;
            // Złoty pay is shown monthly, rounded to 100: a step of 1,200 a year is exactly
            // 100 more a month, so the edit always shows.
            let step = match (f.hourly, words::CITIES[ad.city].currency) {
                (true, _) => 25,
                (false, Currency::Pln) => 1200,
                (false, _) => 1000,
            };
            let up = step * (1 + draw.below(4) as u32);
            (low + up, high + up)
        }),
        Edit::Tag(draw.pick(&tags)),
    ];
    if !f.hourly {
        small.push(Edit::Workplace(
            (ad.workplace + 1 + draw.below(words::WORKPLACES.len() - 1)) % words::WORKPLACES.len(),
        ));
    }
    // A short ad shows only its requirements.
    let shown: &[Section] = if ad.short {
        &[Section::Requirements]
    } else {
        &[Section::Duties, Section::Requirements, Section::Benefits]
    };
    for &section in shown {
        let n = ad.list(section).len();
        if n >= 2 {
            let (i, j) = (draw.below(n), draw.below(n));
            if i != j {
                small.push(Edit::Swap(section, i, j));
            }
        }
    }
    shuffle(draw, &mut small);

    let co = &companies[ad.company as usize];
    let mut large = Vec::new();
    for (section, pool) in [
        (Section::Duties, f.duties),
        (Section::Requirements, f.requirements),
        (Section::Nice, f.nice),
        (
            Section::Benefits,
            &benefit_pool(FIELDS[co.field].hourly)[..],
        ),
    ] {
        let have = ad.list(section);
        let mut unused: Vec<String> = pool
            .iter()
            .map(|t| item(draw, t, ad.city))
            .filter(|t| !have.contains(t) && !t.contains('{'))
            .collect();
        shuffle(draw, &mut unused);
        for slot in 0..have.len() {
            // Out of fresh sentences, the rewrite drops the item.
            large.push(Edit::Replace(
                section,
                slot,
                unused.pop().unwrap_or_default(),
            ));
        }
        if let Some(extra) = unused.pop() {
            large.push(Edit::Add(section, extra));
        }
    }
    if !ad.short {
        // The same facts about the company in other words (an agency's blurb is dropped).
        let rewritten = if co.agency {
            String::new()
        } else {
            let other =
                (co.blurb_template + 1 + draw.below(words::BLURBS.len() - 1)) % words::BLURBS.len();
            co.facts.blurb(&co.name, words::BLURBS[other])
        };
        if rewritten != co.blurb {
            large.push(Edit::Blurb(rewritten));
        }
    }
    let others: Vec<&'static str> = f
        .summaries
        .iter()
        .copied()
        .filter(|&t| t != ad.summary)
        .collect();
    if !others.is_empty() {
        large.push(Edit::Summary(draw.pick(&others)));
    }
    if !ad.short {
        large.push(Edit::Eeo(match draw.below(3) {
            0 => None,
            _ => Some(fill(draw.pick(words::EEO), |key| {
                (key == "company").then_some(Cow::Borrowed(&co.name))
            })),
        }));
    }
    large.push(Edit::Apply((ad.apply + 1) % words::APPLY.len()));
    large.push(Edit::Contract(
        (ad.contract + 1 + draw.below(words::CONTRACTS.len() - 1)) % words::CONTRACTS.len(),
    ));
    shuffle(draw, &mut large);
    (small, large)
}

pub(super) fn shuffle<T>(draw: &mut Draw, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        items.swap(i, draw.below(i + 1));
    }
}

/// `ad` after the first `small` small edits and the first `large` large ones.
pub(super) fn edited(ad: &Ad, small: &[Edit], large: &[Edit]) -> Ad {
    let mut out = ad.clone();
    for edit in small.iter().chain(large) {
        edit.apply(&mut out);
    }
    out
}
