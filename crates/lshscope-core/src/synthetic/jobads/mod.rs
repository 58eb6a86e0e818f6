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

mod ad;
mod edits;
mod words;

use ad::*;
use edits::*;

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
    /// Documents in the corpus, planted pairs and reposts included.
    pub documents: usize,
    /// Target Jaccard levels of planted pairs.
    pub levels: Vec<f64>,
    /// Planted pairs per level.
    pub pairs_per_level: usize,
    /// Seed of every random choice: the same options give the same corpus.
    pub seed: u64,
    /// The shingles the planted levels are measured with.
    pub shingle: ShingleOptions,
    /// The shares of reposts, edited reposts, templates and company boilerplate.
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
    Repost {
        /// Position of the ad posted again.
        of: u32,
        /// True for the same text; false when the date and reference number are new.
        verbatim: bool,
    },
    /// Document `of` posted again with a few small edits.
    Edited {
        /// Position of the ad that was edited.
        of: u32,
    },
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
    let mut texts: Vec<Text> = Vec::with_capacity(n);
    let planted = plant_pairs(&mut draw, opts, &companies, &mut texts);
    let rest = n - texts.len();
    let family_docs = (rest as f64 * opts.mix.families) as usize;
    let repost_docs = (rest as f64 * opts.mix.reposts) as usize;
    let edited_docs = (rest as f64 * opts.mix.edited) as usize;
    let originals = rest.saturating_sub(family_docs + repost_docs + edited_docs);
    let ads = write_originals(&mut draw, &companies, &mut texts, originals);
    write_copies(
        &mut draw,
        &companies,
        &mut texts,
        &ads,
        (repost_docs, edited_docs),
    );
    drop(ads);
    let left = n - texts.len();
    write_families(
        &mut draw,
        opts,
        &companies,
        (&employers, &agencies),
        &mut texts,
        left,
    );
    shuffled_corpus(&mut draw, texts, planted, n)
}

/// A text as written, with its origin (`of` an index into the texts written so far) and its
/// company.
type Text = (String, Origin, u32);

/// The company that posts the next ad: a few companies post many ads and most post a few,
/// rank ~ u^1.3.
fn poster(draw: &mut Draw, company_count: usize) -> u32 {
    let rank = (draw.unit().powf(1.3) * company_count as f64) as usize;
    rank.min(company_count - 1) as u32
}

/// The planted pairs: for each level, ads and a copy edited to about that Jaccard, written
/// to `texts` (two at a time, while they fit in the corpus); each as (first, second, Jaccard,
/// level).
fn plant_pairs(
    draw: &mut Draw,
    opts: &JobAdOptions,
    companies: &[Company],
    texts: &mut Vec<Text>,
) -> Vec<(usize, usize, f64, f64)> {
    let n = opts.documents;
    let mut shingler = Shingler::new(opts.shingle.clone());
    let mut planted = Vec::new();
    'levels: for &level in &opts.levels {
        for _ in 0..opts.pairs_per_level {
            if texts.len() + 2 > n {
                break 'levels;
            }
            let company = poster(draw, companies.len());
            let ad = new_ad(draw, companies, company, false);
            let co = &companies[company as usize];
            let base = ad.render(co);
            let (text, j) = plant(draw, &mut shingler, &ad, &base, companies, level);
            planted.push((texts.len(), texts.len() + 1, j, level));
            texts.push((base, Origin::Planted, company));
            texts.push((text, Origin::Planted, company));
        }
    }
    planted
}

/// The originals: new ads, kept (with where their text is) so that reposts can edit them.
fn write_originals(
    draw: &mut Draw,
    companies: &[Company],
    texts: &mut Vec<Text>,
    originals: usize,
) -> Vec<(usize, Ad)> {
    let mut ads: Vec<(usize, Ad)> = Vec::with_capacity(originals);
    for _ in 0..originals {
        let company = poster(draw, companies.len());
        let short = draw.chance(0.15);
        let ad = new_ad(draw, companies, company, short);
        let text = ad.render(&companies[company as usize]);
        ads.push((texts.len(), ad));
        texts.push((text, Origin::Original, company));
    }
    ads
}

/// Reposts (verbatim, or renewed: new date and reference) and edited copies of the originals.
fn write_copies(
    draw: &mut Draw,
    companies: &[Company],
    texts: &mut Vec<Text>,
    ads: &[(usize, Ad)],
    (repost_docs, edited_docs): (usize, usize),
) {
    for k in 0..repost_docs + edited_docs {
        if ads.is_empty() {
            break;
        }
        let (of, ad) = &ads[draw.below(ads.len())];
        let co = &companies[ad.company as usize];
        let (small, large) = edits_of(draw, ad, companies);
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
}

/// Template families filling the `left` documents still to write: an agency's text (or a
/// chain's ad) with other titles, cities, pay.
fn write_families(
    draw: &mut Draw,
    opts: &JobAdOptions,
    companies: &[Company],
    (employers, agencies): (&[u32], &[u32]),
    texts: &mut Vec<Text>,
    mut left: usize,
) {
    let mut family = 0u32;
    while left > 0 {
        let u = draw.unit().max(f64::MIN_POSITIVE);
        // Pareto by inversion (exponent 1.2), at least MIN_FAMILY unless the cap is lower.
        let size = ((MIN_FAMILY as f64 * u.powf(-1.0 / 1.2)) as usize)
            .min(opts.mix.max_family.max(1))
            .min(left);
        let from_agency = !agencies.is_empty() && (employers.is_empty() || draw.chance(0.7));
        let company = if from_agency {
            draw.pick(agencies)
        } else {
            draw.pick(employers)
        };
        let co = &companies[company as usize];
        let template = new_ad(draw, companies, company, false);
        let titles = FIELDS[template.field].titles;
        for _ in 0..size {
            let mut member = template.clone();
            if from_agency {
                member.title = draw.pick(titles);
            }
            member.city = draw.below(words::CITIES.len());
            member.pay = draw_pay(draw, member.field, member.city);
            member.posted = draw_date(draw);
            member.reference = 1000 + draw.below(9000) as u32;
            if draw.chance(0.3) && !member.requirements.is_empty() {
                let pool = FIELDS[member.field].requirements;
                let slot = draw.below(member.requirements.len());
                let template = draw.pick(pool);
                member.requirements[slot] = item(draw, template, member.city);
            }
            texts.push((member.render(co), Origin::Family(family), company));
        }
        family += 1;
        left -= size;
    }
}

/// The texts shuffled (so that copies and pairs are not neighbours) into the corpus, with
/// the origins and planted pairs renumbered to the new order.
fn shuffled_corpus(
    draw: &mut Draw,
    mut texts: Vec<Text>,
    planted: Vec<(usize, usize, f64, f64)>,
    n: usize,
) -> JobAds {
    let mut perm: Vec<usize> = (0..texts.len()).collect();
    shuffle(draw, &mut perm);
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
mod tests;
