//! Synthetic job ads: a corpus a person can read and judge, with planted near-duplicates at
//! chosen Jaccard levels.
//!
//! Real job boards are full of near-duplicates of several kinds, and this generator makes each
//! of them from the vocabularies in `jobads/words.rs` (written for lshscope, nothing copied):
//! - **boilerplate**: a company puts the same blurb, benefits, equal-opportunity line and
//!   application instructions in every ad, so unrelated ads of one company (and, through the
//!   equal-opportunity lines that come with hiring software, of different companies) overlap a
//!   little;
//! - **reposts**: the same ad again, verbatim or with a new date and reference number;
//! - **edited reposts**: the pay changed, a requirement added, a sentence moved;
//! - **template families**: an agency (or a chain hiring for many branches) fills one text
//!   with other titles, cities and pay, dozens to hundreds of times;
//! - **planted pairs**: an ad and a rewrite of it whose exact Jaccard, under the given shingle
//!   options, lands on a chosen level. The rewrite is a sequence of edits a person reads as
//!   edits of a job ad: small ones first (a new date or reference, other pay, a title tag, two
//!   sentences swapped), then larger ones (a duty or requirement rewritten or added, another
//!   blurb, summary, contract or closing line). The number of large edits is found by
//!   bisection, as [`crate::synthetic::words::generate`] does with replaced words, and the small ones
//!   then bring the Jaccard as close to the level as they can.
//!
//! Ads are single lines (no tab, no line break), so every output format of `lshscope gen` can
//! hold them. Short ads (a few lines of a staffing app) and long ones (every section, a long
//! blurb), straight and typographic quotes, and non-ASCII city names and currency signs are
//! all part of the mix.

mod words;

use std::borrow::Cow;

use crate::corpus::Corpus;
use crate::minhash::similarity::jaccard;
use crate::synthetic::words::{PlantedPair, first_at_or_below, shingle_set};
use crate::text::{ShingleOptions, Shingler};
use crate::util::rng::SplitMix64;
use words::{Currency, FIELDS};

/// What to generate.
#[derive(Debug, Clone, PartialEq)]
pub struct JobAdOptions {
    pub documents: usize,
    /// Target Jaccard levels of planted pairs.
    pub levels: Vec<f64>,
    /// Planted pairs per level.
    pub pairs_per_level: usize,
    pub seed: u64,
    /// The shingles the planted levels are measured with.
    pub shingle: ShingleOptions,
    pub mix: JobMix,
}

/// The shares of the documents beyond the planted pairs; the rest are ads written once.
#[derive(Debug, Clone, PartialEq)]
pub struct JobMix {
    /// Reposts of an ad written once: half verbatim, half with a new date and reference.
    pub reposts: f64,
    /// Reposts with a few small edits (pay, a requirement, a sentence moved, a title tag).
    pub edited: f64,
    /// Members of template families.
    pub families: f64,
    /// The largest template family (families are at least [`MIN_FAMILY`] strong, with a
    /// Pareto tail up to this).
    pub max_family: usize,
}

impl Default for JobMix {
    fn default() -> Self {
        JobMix {
            reposts: 0.08,
            edited: 0.06,
            families: 0.10,
            max_family: 150,
        }
    }
}

/// The smallest template family ("dozens to hundreds").
pub const MIN_FAMILY: usize = 12;

impl Default for JobAdOptions {
    fn default() -> Self {
        JobAdOptions {
            documents: 20_000,
            levels: vec![0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95],
            pairs_per_level: 200,
            seed: 1,
            shingle: ShingleOptions::default(),
            mix: JobMix::default(),
        }
    }
}

/// Where a document comes from (positions are the corpus's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// An ad written once; it still shares its company's boilerplate with the company's
    /// other ads.
    Original,
    /// One side of a planted pair ([`JobAds::planted`]).
    Planted,
    /// Document `of` posted again: `verbatim`, or with a new date and reference number.
    Repost { of: u32, verbatim: bool },
    /// Document `of` posted again with a few small edits.
    Edited { of: u32 },
    /// A member of template family `n` (families numbered from 0).
    Family(u32),
}

/// A generated corpus of job ads.
#[derive(Debug, Clone)]
pub struct JobAds {
    /// Ids `job-000001`, … in shuffled order.
    pub corpus: Corpus,
    /// The planted pairs, by position (a < b), sorted.
    pub planted: Vec<PlantedPair>,
    /// Where each document comes from.
    pub origin: Vec<Origin>,
    /// The company (or agency) that posted each document, numbered from 0.
    pub company: Vec<u32>,
}

/// The generator's draws, on the crate's one random generator.
struct Draw(SplitMix64);

impl Draw {
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n as u64) as usize
    }

    fn unit(&mut self) -> f64 {
        self.0.unit()
    }

    fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// `count` distinct indices below `n` (fewer when `n` is smaller), in random order.
    fn distinct(&mut self, n: usize, count: usize) -> Vec<usize> {
        let mut all: Vec<usize> = (0..n).collect();
        let count = count.min(n);
        for i in 0..count {
            let j = i + self.below(n - i);
            all.swap(i, j);
        }
        all.truncate(count);
        all
    }
}

/// Replaces each `{key}` of `template` by `value(key)`; unknown keys stay as they are.
fn fill<'a>(template: &str, value: impl Fn(&str) -> Option<Cow<'a, str>>) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                let key = &after[..close];
                match value(key) {
                    Some(v) => out.push_str(&v),
                    None => {
                        out.push('{');
                        out.push_str(key);
                        out.push('}');
                    }
                }
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// Digits of `n` in groups of three, separated by `sep`.
fn grouped(n: u32, sep: &str) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + 4);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push_str(sep);
        }
        out.push(c);
    }
    out
}

/// An amount of money as that currency writes it in an English ad.
fn money(currency: Currency, amount: u32) -> String {
    match currency {
        Currency::Eur => format!("€{}", grouped(amount, ",")),
        Currency::Gbp => format!("£{}", grouped(amount, ",")),
        Currency::Usd => format!("${}", grouped(amount, ",")),
        Currency::Chf => format!("CHF {}", grouped(amount, "’")),
        Currency::Sek => format!("{} kr", grouped(amount, " ")),
        Currency::Cad => format!("C${}", grouped(amount, ",")),
        Currency::Aud => format!("A${}", grouped(amount, ",")),
        Currency::Pln => format!("{} zł", grouped(amount, " ")),
    }
}

/// Cents as that currency writes an hourly rate.
fn hourly(currency: Currency, cents: u32) -> String {
    let (whole, frac) = (cents / 100, cents % 100);
    match currency {
        Currency::Chf => format!("CHF {whole}.{frac:02}"),
        Currency::Sek => format!("{whole},{frac:02} kr"),
        Currency::Pln => format!("{whole},{frac:02} zł"),
        _ => {
            let m = money(currency, whole);
            format!("{m}.{frac:02}")
        }
    }
}

/// The benefits a company picks from: shift work or office work, and what every job has.
fn benefit_pool(shift_work: bool) -> Vec<&'static str> {
    let special = if shift_work {
        words::SHIFT_BENEFITS
    } else {
        words::OFFICE_BENEFITS
    };
    words::BENEFITS.iter().chain(special).copied().collect()
}

/// A company (or staffing agency) and the boilerplate it repeats in every ad.
struct Company {
    name: String,
    facts: Facts,
    /// Which of [`words::BLURBS`] the blurb is written from.
    blurb_template: usize,
    field: usize,
    agency: bool,
    blurb: String,
    benefits: Vec<String>,
    eeo: Option<String>,
    apply: usize,
    headings: usize,
    date_style: u8,
    pay_style: u8,
    separator: &'static str,
    /// Curly quotes and apostrophes, as pasted from a word processor.
    typographic: bool,
    email: String,
    ref_prefix: String,
}

fn make_company(draw: &mut Draw, taken: &mut std::collections::HashSet<String>) -> Company {
    let field = draw.below(FIELDS.len());
    let agency = draw.chance(0.12);
    let mut name;
    loop {
        let first = draw.pick(words::NAME_FIRST);
        let second = if agency {
            draw.pick(&["Recruitment", "Staffing", "Talent", "People", "Search"])
        } else if draw.chance(0.6) {
            draw.pick(FIELDS[field].names)
        } else {
            draw.pick(words::NAME_SECOND)
        };
        name = format!("{first} {second}");
        if draw.chance(0.3) {
            name.push_str(draw.pick(&[" Ltd", " GmbH", " AG", " B.V.", " Inc.", " S.A."]));
        }
        if taken.insert(name.clone()) {
            break;
        }
    }
    let home = draw.below(words::CITIES.len());
    let office_count = 1 + draw.below(3);
    let others = draw.distinct(words::CITIES.len(), office_count);
    let mut offices: Vec<&str> = vec![words::CITIES[home].name];
    offices.extend(
        others
            .iter()
            .map(|&c| words::CITIES[c].name)
            .filter(|&c| c != words::CITIES[home].name),
    );
    let offices = match offices.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => unreachable!("the home city is always there"),
    };
    let industry = draw.pick(FIELDS[field].industries);
    let founded = 1950 + draw.below(72);
    let people = draw.pick(&[12, 35, 60, 85, 140, 220, 400, 750, 1_200, 3_500]);
    let facts = Facts {
        industry,
        founded,
        people,
        offices,
    };
    let blurb_template = draw.below(words::BLURBS.len());
    let blurb = if agency {
        format!(
            "{name} has placed people in {} jobs for over {} years.",
            draw.pick(&["permanent and temporary", "skilled", "specialist", "local"]),
            5 + draw.below(25)
        )
    } else {
        facts.blurb(&name, words::BLURBS[blurb_template])
    };
    let currency = words::CITIES[home].currency;
    let days = draw.pick(&[25, 26, 28, 30]);
    let budget = money(
        currency,
        ((1_000.0 * currency.scale()) as u32 / 100 * 100).max(100),
    );
    let benefit_count = 3 + draw.below(5);
    let pool = benefit_pool(FIELDS[field].hourly);
    let benefits = draw
        .distinct(pool.len(), benefit_count)
        .into_iter()
        .map(|b| {
            fill(pool[b], |key| match key {
                "days" => Some(Cow::Owned(days.to_string())),
                "budget" => Some(Cow::Borrowed(&budget)),
                _ => None,
            })
        })
        .collect();
    let eeo = draw.chance(0.7).then(|| {
        fill(draw.pick(words::EEO), |key| {
            (key == "company").then_some(Cow::Borrowed(&name))
        })
    });
    let slug: Vec<String> = name
        .split_whitespace()
        .map(|w| {
            w.chars()
                .filter(char::is_ascii_alphanumeric)
                .collect::<String>()
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .take(2)
        .collect();
    let slug = slug.join("-");
    let ref_prefix: String = name
        .split_whitespace()
        .filter_map(|w| w.chars().next())
        .filter(|c| c.is_ascii_alphabetic())
        .take(3)
        .collect::<String>()
        .to_uppercase();
    Company {
        field,
        agency,
        blurb,
        benefits,
        eeo,
        apply: draw.below(words::APPLY.len()),
        headings: draw.below(words::HEADINGS.len()),
        date_style: draw.below(4) as u8,
        pay_style: draw.below(3) as u8,
        separator: draw.pick(&[" – ", " | ", ", ", " - "]),
        typographic: draw.chance(0.2),
        email: format!(
            "{}@{slug}.example",
            draw.pick(&["jobs", "careers", "hr", "recruiting"])
        ),
        ref_prefix,
        name,
        facts,
        blurb_template,
    }
}

/// What a company's blurb says about it.
struct Facts {
    industry: &'static str,
    founded: usize,
    people: u32,
    offices: String,
}

impl Facts {
    /// A blurb of `company` from one of [`words::BLURBS`].
    fn blurb(&self, company: &str, template: &str) -> String {
        fill(template, |key| match key {
            "company" => Some(Cow::Borrowed(company)),
            "industry" => Some(Cow::Borrowed(self.industry)),
            "founded" => Some(Cow::Owned(self.founded.to_string())),
            "people" => Some(Cow::Owned(grouped(self.people, ","))),
            "offices" => Some(Cow::Borrowed(&self.offices)),
            _ => None,
        })
    }
}

/// The parts of an ad that lists of items are kept in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Duties,
    Requirements,
    Nice,
    Benefits,
}

/// One ad, as fields a reposter edits; [`Ad::render`] writes it as text.
#[derive(Debug, Clone)]
struct Ad {
    company: u32,
    field: usize,
    title: &'static str,
    tag: Option<&'static str>,
    city: usize,
    workplace: usize,
    contract: usize,
    /// Yearly pay in whole units of the city's currency, or hourly pay in cents.
    pay: (u32, u32),
    /// Posting day and month (of 2026); the closing date is four weeks later.
    posted: (u8, u8),
    reference: u32,
    /// An agency's intro, filled with the title and city when rendered (so that members of
    /// a family differ in them).
    intro: Option<&'static str>,
    blurb: Option<String>,
    /// The summary sentence, filled with the city and `team` when rendered.
    summary: &'static str,
    team: u32,
    duties: Vec<String>,
    requirements: Vec<String>,
    nice: Vec<String>,
    benefits: Vec<String>,
    eeo: Option<String>,
    apply: usize,
    short: bool,
}

/// Draws pay for `field` in `city`'s currency: yearly rounded to 500 (monthly in złoty is
/// still stored yearly), hourly in cents rounded to 5.
fn draw_pay(draw: &mut Draw, field: usize, city: usize) -> (u32, u32) {
    let f = &FIELDS[field];
    let scale = words::CITIES[city].currency.scale();
    let base = f.pay.0 as f64 + draw.unit() * (f.pay.1 - f.pay.0) as f64;
    if f.hourly {
        let low = (base * scale * 100.0 / 5.0).round() as u32 * 5;
        let high = low + 50 * draw.below(5) as u32;
        (low, high)
    } else {
        let low = (base * scale / 500.0).round() as u32 * 500;
        let high = low + (low / 500 / 8).max(1) * 500 * (1 + draw.below(3) as u32);
        (low, high)
    }
}

/// Fills an item's placeholders that depend on the ad.
fn item(draw: &mut Draw, template: &str, city: usize) -> String {
    let years = 1 + draw.below(6);
    let team = draw.pick(&[4, 6, 8, 12, 15, 20, 25, 30]);
    fill(template, |key| match key {
        "years" => Some(Cow::Owned(years.to_string())),
        "team" => Some(Cow::Owned(team.to_string())),
        "city" => Some(Cow::Borrowed(words::CITIES[city].name)),
        _ => None,
    })
}

/// A posting date in January to November 2026 (so that the closing date, a month later, is
/// in 2026 too).
fn draw_date(draw: &mut Draw) -> (u8, u8) {
    (1 + draw.below(28) as u8, 1 + draw.below(11) as u8)
}

fn new_ad(draw: &mut Draw, companies: &[Company], company: u32, short: bool) -> Ad {
    let co = &companies[company as usize];
    // Agencies fill jobs in every field, and any employer now and then hires for the
    // functions every business has (software, data, finance, sales and office work).
    let field = if co.agency {
        draw.below(FIELDS.len())
    } else if draw.chance(0.15) {
        draw.pick(words::EVERY_BUSINESS)
    } else {
        co.field
    };
    let f = &FIELDS[field];
    let city = draw.below(words::CITIES.len());
    let title = draw.pick(f.titles);
    let long = !short && draw.chance(0.3);
    let (duties, requirements) = if short {
        (0, 2)
    } else {
        (
            3 + draw.below(3) + long as usize,
            3 + draw.below(3) + long as usize,
        )
    };
    let duties = draw
        .distinct(f.duties.len(), duties)
        .into_iter()
        .map(|i| item(draw, f.duties[i], city))
        .collect();
    let requirements = draw
        .distinct(f.requirements.len(), requirements)
        .into_iter()
        .map(|i| item(draw, f.requirements[i], city))
        .collect();
    let nice = if long || (!short && draw.chance(0.3)) {
        let count = 1 + draw.below(3);
        draw.distinct(f.nice.len(), count)
            .into_iter()
            .map(|i| f.nice[i].to_string())
            .collect()
    } else {
        Vec::new()
    };
    let summary = draw.pick(f.summaries);
    let team = draw.pick(&[4, 6, 8, 12, 15, 20, 25, 30]);
    let intro = co.agency.then(|| draw.pick(words::AGENCY_INTROS));
    Ad {
        company,
        field,
        title,
        tag: draw.chance(0.08).then(|| draw.pick(words::TITLE_TAGS)),
        city,
        workplace: if f.hourly {
            0
        } else {
            draw.below(words::WORKPLACES.len())
        },
        contract: draw.below(words::CONTRACTS.len()),
        pay: draw_pay(draw, field, city),
        posted: draw_date(draw),
        reference: 1000 + draw.below(9000) as u32,
        intro,
        blurb: None,
        summary,
        team,
        duties,
        requirements,
        nice,
        benefits: if short {
            co.benefits.iter().take(2).cloned().collect()
        } else {
            co.benefits.clone()
        },
        eeo: if short { None } else { co.eeo.clone() },
        apply: co.apply,
        short,
    }
}

impl Ad {
    fn date(&self, co: &Company, (day, month): (u8, u8)) -> String {
        match co.date_style {
            0 => format!("{day} {} 2026", words::MONTHS[month as usize - 1]),
            1 => format!("{} {day}, 2026", words::MONTHS[month as usize - 1]),
            2 => format!("2026-{month:02}-{day:02}"),
            _ => format!("{day:02}.{month:02}.2026"),
        }
    }

    fn closing(&self) -> (u8, u8) {
        let (day, month) = self.posted;
        (day, month + 1)
    }

    fn pay_text(&self, co: &Company) -> String {
        let currency = words::CITIES[self.city].currency;
        let (low, high) = self.pay;
        if FIELDS[self.field].hourly {
            return match co.pay_style {
                0 => format!("{} an hour", hourly(currency, low)),
                1 => format!(
                    "{} to {} per hour depending on experience",
                    hourly(currency, low),
                    hourly(currency, high)
                ),
                _ => format!("Pay: {}/hour plus holiday pay", hourly(currency, low)),
            };
        }
        if currency == Currency::Pln {
            // Polish ads quote monthly gross pay.
            let (low, high) = (low / 12 / 100 * 100, high / 12 / 100 * 100);
            return format!(
                "{}–{} a month (gross)",
                grouped(low, " "),
                money(currency, high)
            );
        }
        match co.pay_style {
            0 => format!("{}–{} a year", money(currency, low), money(currency, high)),
            1 => format!(
                "Salary: {} to {} per annum",
                money(currency, low),
                money(currency, high)
            ),
            _ => format!("Up to {} a year plus bonus", money(currency, high)),
        }
    }

    fn list(&self, section: Section) -> &Vec<String> {
        match section {
            Section::Duties => &self.duties,
            Section::Requirements => &self.requirements,
            Section::Nice => &self.nice,
            Section::Benefits => &self.benefits,
        }
    }

    fn list_mut(&mut self, section: Section) -> &mut Vec<String> {
        match section {
            Section::Duties => &mut self.duties,
            Section::Requirements => &mut self.requirements,
            Section::Nice => &mut self.nice,
            Section::Benefits => &mut self.benefits,
        }
    }

    /// The ad as one line of text.
    fn render(&self, co: &Company) -> String {
        let mut s = String::with_capacity(1200);
        let city = words::CITIES[self.city].name;
        s.push_str(self.title);
        if let Some(tag) = self.tag {
            s.push_str(tag);
        }
        s.push_str(co.separator);
        s.push_str(&co.name);
        s.push_str(co.separator);
        s.push_str(city);
        if self.workplace != 0 {
            s.push_str(" (");
            s.push_str(words::WORKPLACES[self.workplace]);
            s.push(')');
        }
        s.push_str(". ");
        if co.date_style == 1 {
            s.push_str("Posted ");
            s.push_str(&self.date(co, self.posted));
            s.push_str(". ");
        }
        s.push_str(words::CONTRACTS[self.contract]);
        s.push_str(". ");
        s.push_str(&self.pay_text(co));
        s.push('.');
        let headings = &words::HEADINGS[co.headings];
        if !self.short {
            if let Some(intro) = self.intro {
                s.push(' ');
                s.push_str(&fill(intro, |key| match key {
                    "company" => Some(Cow::Borrowed(&co.name)),
                    "title" => Some(Cow::Borrowed(self.title)),
                    "city" => Some(Cow::Borrowed(city)),
                    _ => None,
                }));
            }
            let blurb = self.blurb.as_deref().unwrap_or(&co.blurb);
            if !blurb.is_empty() {
                s.push(' ');
                s.push_str(blurb);
            }
        }
        s.push(' ');
        s.push_str(&fill(self.summary, |key| match key {
            "city" => Some(Cow::Borrowed(city)),
            "team" => Some(Cow::Owned(self.team.to_string())),
            _ => None,
        }));
        let sections: &[(Section, &str)] = if self.short {
            &[(Section::Requirements, headings.requirements)]
        } else {
            &[
                (Section::Duties, headings.duties),
                (Section::Requirements, headings.requirements),
                (Section::Nice, headings.nice),
                (Section::Benefits, headings.benefits),
            ]
        };
        for &(section, heading) in sections {
            let items: Vec<&str> = self
                .list(section)
                .iter()
                .map(String::as_str)
                .filter(|i| !i.is_empty())
                .collect();
            if items.is_empty() {
                continue;
            }
            s.push(' ');
            s.push_str(heading);
            s.push(' ');
            s.push_str(&items.join("; "));
            s.push('.');
        }
        let closing = self.date(co, self.closing());
        let reference = format!("{}-{}", co.ref_prefix, self.reference);
        let extension = 2000 + (self.reference * 7) % 7000;
        s.push(' ');
        s.push_str(&fill(words::APPLY[self.apply], |key| match key {
            "date" => Some(Cow::Borrowed(&closing)),
            "ref" => Some(Cow::Borrowed(&reference)),
            "email" => Some(Cow::Borrowed(&co.email)),
            "phone" => Some(Cow::Owned(format!("extension {extension}"))),
            _ => None,
        }));
        if let Some(eeo) = &self.eeo {
            s.push(' ');
            s.push_str(eeo);
        }
        if co.date_style != 1 {
            s.push_str(" Posted ");
            s.push_str(&self.date(co, self.posted));
            s.push('.');
        }
        if co.typographic { typographic(&s) } else { s }
    }
}

/// Straight quotes and apostrophes made curly, as a word processor does.
fn typographic(s: &str) -> String {
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
enum Edit {
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
    fn apply(&self, ad: &mut Ad) {
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
fn edits_of(draw: &mut Draw, ad: &Ad, companies: &[Company]) -> (Vec<Edit>, Vec<Edit>) {
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

fn shuffle<T>(draw: &mut Draw, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        items.swap(i, draw.below(i + 1));
    }
}

/// `ad` after the first `small` small edits and the first `large` large ones.
fn edited(ad: &Ad, small: &[Edit], large: &[Edit]) -> Ad {
    let mut out = ad.clone();
    for edit in small.iter().chain(large) {
        edit.apply(&mut out);
    }
    out
}

/// A rewrite of `ad` whose Jaccard with it, under `shingler`, is as close to `level` as the
/// edits allow: (text, Jaccard).
fn plant(
    draw: &mut Draw,
    shingler: &mut Shingler,
    ad: &Ad,
    base_text: &str,
    companies: &[Company],
    level: f64,
) -> (String, f64) {
    let co = &companies[ad.company as usize];
    let base_set = shingle_set(shingler, base_text);
    let (small, large) = edits_of(draw, ad, companies);
    let mut jaccard_of = |s: usize, l: usize| {
        let text = edited(ad, &small[..s], &large[..l]).render(co);
        let j = jaccard(&base_set, &shingle_set(shingler, &text));
        (text, j)
    };
    // With every small edit made, the Jaccard falls (almost) monotonically with the number of
    // large ones: the first count at or below the level, and the one before it, bracket it.
    let all_small = small.len();
    let first = first_at_or_below(large.len(), level, |l| jaccard_of(all_small, l).1);
    let mut best = (f64::INFINITY, String::new(), 0.0);
    for l in [first.saturating_sub(1), first] {
        for s in 0..=all_small {
            let (text, j) = jaccard_of(s, l);
            if (j - level).abs() < best.0 {
                best = ((j - level).abs(), text, j);
            }
        }
    }
    (best.1, best.2)
}

/// Generates the corpus. Deterministic: the same options give the same corpus.
pub fn generate_job_ads(opts: &JobAdOptions) -> JobAds {
    let mut draw = Draw(SplitMix64::new(opts.seed ^ 0x6a6f_6261_6473));
    let n = opts.documents;
    let mut taken = std::collections::HashSet::new();
    // About twenty ads per company on average, a few companies with a hundred or more.
    let company_count = (n / 20).clamp(8, 20_000);
    let companies: Vec<Company> = (0..company_count)
        .map(|_| make_company(&mut draw, &mut taken))
        .collect();
    let employers: Vec<u32> = (0..company_count as u32)
        .filter(|&c| !companies[c as usize].agency)
        .collect();
    let agencies: Vec<u32> = (0..company_count as u32)
        .filter(|&c| companies[c as usize].agency)
        .collect();
    // A few companies post many ads and most post a few: rank ~ u^1.3.
    let poster = |draw: &mut Draw| -> u32 {
        let rank = (draw.unit().powf(1.3) * company_count as f64) as usize;
        rank.min(company_count - 1) as u32
    };
    let mut shingler = Shingler::new(opts.shingle.clone());
    // (text, origin with `of` as an index into `texts`, company)
    let mut texts: Vec<(String, Origin, u32)> = Vec::with_capacity(n);
    let mut planted = Vec::new();
    'levels: for &level in &opts.levels {
        for _ in 0..opts.pairs_per_level {
            if texts.len() + 2 > n {
                break 'levels;
            }
            let company = poster(&mut draw);
            let ad = new_ad(&mut draw, &companies, company, false);
            let co = &companies[company as usize];
            let base = ad.render(co);
            let (text, j) = plant(&mut draw, &mut shingler, &ad, &base, &companies, level);
            planted.push((texts.len(), texts.len() + 1, j, level));
            texts.push((base, Origin::Planted, company));
            texts.push((text, Origin::Planted, company));
        }
    }
    let rest = n - texts.len();
    let family_docs = (rest as f64 * opts.mix.families) as usize;
    let repost_docs = (rest as f64 * opts.mix.reposts) as usize;
    let edited_docs = (rest as f64 * opts.mix.edited) as usize;
    let originals = rest.saturating_sub(family_docs + repost_docs + edited_docs);
    // Originals first, kept as ads so that reposts can edit them.
    let mut ads: Vec<(usize, Ad)> = Vec::with_capacity(originals);
    for _ in 0..originals {
        let company = poster(&mut draw);
        let short = draw.chance(0.15);
        let ad = new_ad(&mut draw, &companies, company, short);
        let text = ad.render(&companies[company as usize]);
        ads.push((texts.len(), ad));
        texts.push((text, Origin::Original, company));
    }
    for k in 0..repost_docs + edited_docs {
        if ads.is_empty() {
            break;
        }
        let (of, ad) = &ads[draw.below(ads.len())];
        let co = &companies[ad.company as usize];
        let (small, large) = edits_of(&mut draw, ad, &companies);
        let (text, origin) = if k < repost_docs {
            if draw.chance(0.5) {
                (
                    texts[*of].0.clone(),
                    Origin::Repost {
                        of: *of as u32,
                        verbatim: true,
                    },
                )
            } else {
                let renewed: Vec<Edit> = small
                    .iter()
                    .filter(|e| matches!(e, Edit::Redate(_) | Edit::Reference(_)))
                    .cloned()
                    .collect();
                let text = edited(ad, &renewed, &[]).render(co);
                (
                    text,
                    Origin::Repost {
                        of: *of as u32,
                        verbatim: false,
                    },
                )
            }
        } else {
            // One to three small edits, and now and then a requirement added or rewritten.
            let s = (1 + draw.below(3)).min(small.len());
            let requirement: Vec<Edit> = large
                .iter()
                .filter(|e| {
                    matches!(
                        e,
                        Edit::Add(Section::Requirements, _)
                            | Edit::Replace(Section::Requirements, _, _)
                    )
                })
                .take(usize::from(draw.chance(0.5)))
                .cloned()
                .collect();
            let text = edited(ad, &small[..s], &requirement).render(co);
            (text, Origin::Edited { of: *of as u32 })
        };
        texts.push((text, origin, ad.company));
    }
    drop(ads);
    // Template families: an agency's text (or a chain's ad) with other titles, cities, pay.
    let mut family = 0u32;
    let mut left = n - texts.len();
    while left > 0 {
        let u = draw.unit().max(f64::MIN_POSITIVE);
        // Pareto by inversion (exponent 1.2), at least MIN_FAMILY unless the cap is lower.
        let size = ((MIN_FAMILY as f64 * u.powf(-1.0 / 1.2)) as usize)
            .min(opts.mix.max_family.max(1))
            .min(left);
        let from_agency = !agencies.is_empty() && (employers.is_empty() || draw.chance(0.7));
        let company = if from_agency {
            draw.pick(&agencies)
        } else {
            draw.pick(&employers)
        };
        let co = &companies[company as usize];
        let template = new_ad(&mut draw, &companies, company, false);
        let titles = FIELDS[template.field].titles;
        for _ in 0..size {
            let mut member = template.clone();
            if from_agency {
                member.title = draw.pick(titles);
            }
            member.city = draw.below(words::CITIES.len());
            member.pay = draw_pay(&mut draw, member.field, member.city);
            member.posted = draw_date(&mut draw);
            member.reference = 1000 + draw.below(9000) as u32;
            if draw.chance(0.3) && !member.requirements.is_empty() {
                let pool = FIELDS[member.field].requirements;
                let slot = draw.below(member.requirements.len());
                let template = draw.pick(pool);
                member.requirements[slot] = item(&mut draw, template, member.city);
            }
            texts.push((member.render(co), Origin::Family(family), company));
        }
        family += 1;
        left -= size;
    }
    // Shuffle so that copies and pairs are not neighbours.
    let mut perm: Vec<usize> = (0..texts.len()).collect();
    shuffle(&mut draw, &mut perm);
    let mut position = vec![0u32; texts.len()];
    for (pos, &orig) in perm.iter().enumerate() {
        position[orig] = pos as u32;
    }
    let width = n.to_string().len().max(6);
    let mut corpus = Corpus::new();
    let mut origin = Vec::with_capacity(n);
    let mut company = Vec::with_capacity(n);
    for (pos, &orig) in perm.iter().enumerate() {
        let (text, o, c) = &mut texts[orig];
        corpus.push(&format!("job-{:0width$}", pos + 1), text);
        // Freed as copied, so the texts are not held twice.
        *text = String::new();
        origin.push(match *o {
            Origin::Repost { of, verbatim } => Origin::Repost {
                of: position[of as usize],
                verbatim,
            },
            Origin::Edited { of } => Origin::Edited {
                of: position[of as usize],
            },
            other => other,
        });
        company.push(*c);
    }
    corpus.shrink_to_fit();
    let mut planted: Vec<PlantedPair> = planted
        .into_iter()
        .map(|(x, y, jaccard, level)| {
            let (a, b) = (position[x].min(position[y]), position[x].max(position[y]));
            PlantedPair {
                a,
                b,
                jaccard,
                level,
            }
        })
        .collect();
    planted.sort_by_key(|p| (p.a, p.b));
    JobAds {
        corpus,
        planted,
        origin,
        company,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn jaccard_of(shingler: &mut Shingler, a: &str, b: &str) -> f64 {
        jaccard(&shingle_set(shingler, a), &shingle_set(shingler, b))
    }

    fn small() -> JobAdOptions {
        JobAdOptions {
            documents: 4_000,
            levels: vec![0.3, 0.5, 0.7, 0.8, 0.9, 0.95],
            pairs_per_level: 40,
            seed: 5,
            ..JobAdOptions::default()
        }
    }

    #[test]
    fn planted_pairs_land_near_their_levels() {
        let out = generate_job_ads(&small());
        assert_eq!(out.corpus.len(), 4_000);
        assert_eq!(out.planted.len(), 240);
        let mut shingler = Shingler::new(ShingleOptions::default());
        let mut deviation: HashMap<u64, Vec<f64>> = HashMap::new();
        for p in &out.planted {
            assert!(p.a < p.b);
            assert_eq!(out.origin[p.a as usize], Origin::Planted);
            assert_eq!(out.origin[p.b as usize], Origin::Planted);
            let (a, b) = (out.corpus.text(p.a as usize), out.corpus.text(p.b as usize));
            let j = jaccard_of(&mut shingler, a, b);
            assert_eq!(j, p.jaccard, "the truth states the exact Jaccard");
            assert!(
                (j - p.level).abs() < 0.06,
                "level {} got {j}:\n{a}\n{b}",
                p.level
            );
            // The same job: a rewrite keeps the company and the title it starts with.
            assert_eq!(out.company[p.a as usize], out.company[p.b as usize]);
            let common = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
            assert!(common >= "Barista".len(), "{a}\n{b}");
            deviation
                .entry(p.level.to_bits())
                .or_default()
                .push(j - p.level);
        }
        // No level is missed systematically.
        for (level, d) in deviation {
            let mean = d.iter().sum::<f64>() / d.len() as f64;
            assert!(
                mean.abs() < 0.015,
                "level {}: mean deviation {mean}",
                f64::from_bits(level)
            );
        }
    }

    #[test]
    fn reposts_edits_and_families_come_in_the_chosen_shares() {
        let opts = JobAdOptions {
            documents: 20_000,
            ..JobAdOptions::default()
        };
        let out = generate_job_ads(&opts);
        let corpus = &out.corpus;
        assert_eq!(corpus.len(), 20_000);
        let rest = 20_000 - 2 * 7 * 200;
        let count = |f: &dyn Fn(&Origin) -> bool| out.origin.iter().filter(|o| f(o)).count();
        assert_eq!(count(&|o| *o == Origin::Planted), 2_800);
        assert_eq!(
            count(&|o| matches!(o, Origin::Repost { .. })),
            (rest as f64 * 0.08) as usize
        );
        assert_eq!(
            count(&|o| matches!(o, Origin::Edited { .. })),
            (rest as f64 * 0.06) as usize
        );
        let mut families: HashMap<u32, usize> = HashMap::new();
        for o in &out.origin {
            if let Origin::Family(f) = o {
                *families.entry(*f).or_default() += 1;
            }
        }
        let in_families: usize = families.values().sum();
        assert!(in_families >= (rest as f64 * 0.10) as usize);
        // Dozens to hundreds: every family but the last (cut to fit) is at least MIN_FAMILY
        // strong, none above the cap, and some in the hundreds.
        assert!(families.values().filter(|&&m| m < MIN_FAMILY).count() <= 1);
        assert!(families.values().all(|&m| m <= 150));
        assert!(families.values().any(|&m| m >= 100), "{families:?}");

        let mut shingler = Shingler::new(ShingleOptions::default());
        let (mut verbatim, mut renewed) = (0, 0);
        for (d, o) in out.origin.iter().enumerate() {
            match *o {
                Origin::Repost { of, verbatim: true } => {
                    verbatim += 1;
                    assert_eq!(corpus.text(d), corpus.text(of as usize));
                }
                Origin::Repost {
                    of,
                    verbatim: false,
                } => {
                    renewed += 1;
                    let (a, b) = (corpus.text(of as usize), corpus.text(d));
                    // Only the dates and the reference changed: the same length give or take
                    // a few characters, most shingles shared.
                    assert!(a.len().abs_diff(b.len()) <= 16, "{a}\n{b}");
                    assert!(jaccard_of(&mut shingler, a, b) > 0.8, "{a}\n{b}");
                }
                Origin::Edited { of } => {
                    let j = jaccard_of(&mut shingler, corpus.text(of as usize), corpus.text(d));
                    let (a, b) = (corpus.text(of as usize), corpus.text(d));
                    assert!(j > 0.4 && j < 1.0, "edited repost at {j}:\n{a}\n{b}");
                }
                _ => {}
            }
        }
        assert!(
            verbatim > 400 && renewed > 400,
            "{verbatim} verbatim, {renewed} renewed"
        );
        // Members of a family are near each other but not copies.
        let members: Vec<usize> = (0..corpus.len())
            .filter(|&d| out.origin[d] == Origin::Family(0))
            .collect();
        let j = jaccard_of(
            &mut shingler,
            corpus.text(members[0]),
            corpus.text(members[1]),
        );
        assert!(j > 0.5 && j < 1.0, "family members at {j}");
    }

    #[test]
    fn unrelated_ads_share_boilerplate_at_low_jaccard() {
        let out = generate_job_ads(&small());
        let corpus = &out.corpus;
        let originals: Vec<usize> = (0..corpus.len())
            .filter(|&d| out.origin[d] == Origin::Original)
            .collect();
        let mut shingler = Shingler::new(ShingleOptions::default());
        let (mut same, mut other) = (Vec::new(), Vec::new());
        let mut by_company: HashMap<u32, Vec<usize>> = HashMap::new();
        for &d in &originals {
            by_company.entry(out.company[d]).or_default().push(d);
        }
        for ads in by_company.values() {
            for pair in ads.windows(2).take(3) {
                same.push(jaccard_of(
                    &mut shingler,
                    corpus.text(pair[0]),
                    corpus.text(pair[1]),
                ));
            }
        }
        for w in originals.windows(2).take(500) {
            if out.company[w[0]] != out.company[w[1]] {
                other.push(jaccard_of(
                    &mut shingler,
                    corpus.text(w[0]),
                    corpus.text(w[1]),
                ));
            }
        }
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        assert!(same.len() > 200 && other.len() > 200);
        // One company's ads share its blurb, benefits and closing lines: clearly related to
        // MinHash, yet far from duplicates.
        assert!(
            (0.2..0.5).contains(&mean(&same)),
            "same company {}",
            mean(&same)
        );
        // Different companies share only common phrases and equal-opportunity lines.
        assert!(
            (0.03..0.2).contains(&mean(&other)),
            "other companies {}",
            mean(&other)
        );
        assert!(other.iter().all(|&j| j > 0.0 && j < 0.6));
    }

    #[test]
    fn ads_are_single_lines_with_short_long_quoted_and_non_ascii_ones() {
        let out = generate_job_ads(&small());
        let texts: Vec<&str> = (0..out.corpus.len()).map(|d| out.corpus.text(d)).collect();
        assert!(texts.iter().all(|t| !t.contains(['\t', '\n', '\r'])));
        assert!(
            texts.iter().all(|t| !t.contains('{')),
            "a placeholder left unfilled"
        );
        assert!(texts.iter().any(|t| t.len() < 400));
        assert!(texts.iter().any(|t| t.len() > 1500));
        assert!(texts.iter().any(|t| t.contains('"')));
        assert!(texts.iter().any(|t| t.contains('“') && t.contains('’')));
        for s in ["Zürich", "Kraków", "€", "£", "zł", "CHF"] {
            assert!(texts.iter().any(|t| t.contains(s)), "{s}");
        }
        assert_eq!(out.corpus.id(0), "job-000001");
    }

    #[test]
    fn the_same_seed_gives_the_same_corpus() {
        let opts = JobAdOptions {
            documents: 1_500,
            pairs_per_level: 10,
            ..small()
        };
        let (a, b) = (generate_job_ads(&opts), generate_job_ads(&opts));
        assert!((0..1_500).all(|d| a.corpus.text(d) == b.corpus.text(d)));
        assert_eq!(a.planted, b.planted);
        assert_eq!(a.origin, b.origin);
        let other = generate_job_ads(&JobAdOptions { seed: 6, ..opts });
        assert!((0..1_500).any(|d| a.corpus.text(d) != other.corpus.text(d)));
    }

    #[test]
    fn tiny_corpora_and_small_family_caps_are_filled_exactly() {
        for documents in [0, 1, 3, 60] {
            for max_family in [1, 5, 150] {
                let out = generate_job_ads(&JobAdOptions {
                    documents,
                    pairs_per_level: 2,
                    mix: JobMix {
                        max_family,
                        ..JobMix::default()
                    },
                    ..small()
                });
                assert_eq!(out.corpus.len(), documents);
                assert_eq!(out.origin.len(), documents);
                assert_eq!(out.planted.len(), (documents / 2).min(12));
            }
        }
    }

    #[test]
    fn placeholders_and_money_are_written_out() {
        assert_eq!(grouped(1_234_567, ","), "1,234,567");
        assert_eq!(grouped(999, ","), "999");
        assert_eq!(money(Currency::Chf, 104_000), "CHF 104’000");
        assert_eq!(money(Currency::Pln, 9_500), "9 500 zł");
        assert_eq!(hourly(Currency::Gbp, 1_240), "£12.40");
        assert_eq!(
            fill("{a} and {b} but {unknown}", |k| match k {
                "a" => Some(Cow::Borrowed("x")),
                "b" => Some(Cow::Owned("y".to_string())),
                _ => None,
            }),
            "x and y but {unknown}"
        );
        assert_eq!(typographic(r#"say "hi" it's"#), "say “hi” it’s");
    }
}
