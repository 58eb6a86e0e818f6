//! One job ad drawn whole: its company, pay, dates and sections, and its text.

use super::*;

/// The benefits a company picks from: shift work or office work, and what every job has.
pub(super) fn benefit_pool(shift_work: bool) -> Vec<&'static str> {
    let special = if shift_work {
        words::SHIFT_BENEFITS
    } else {
        words::OFFICE_BENEFITS
    };
    words::BENEFITS.iter().chain(special).copied().collect()
}

/// A company (or staffing agency) and the boilerplate it repeats in every ad.
pub(super) struct Company {
    pub(super) name: String,
    pub(super) facts: Facts,
    /// Which of [`words::BLURBS`] the blurb is written from.
    pub(super) blurb_template: usize,
    pub(super) field: usize,
    pub(super) agency: bool,
    pub(super) blurb: String,
    pub(super) benefits: Vec<String>,
    pub(super) eeo: Option<String>,
    pub(super) apply: usize,
    pub(super) headings: usize,
    pub(super) date_style: u8,
    pub(super) pay_style: u8,
    pub(super) separator: &'static str,
    /// Curly quotes and apostrophes, as pasted from a word processor.
    pub(super) typographic: bool,
    pub(super) email: String,
    pub(super) ref_prefix: String,
}

pub(super) fn make_company(
    draw: &mut Draw,
    taken: &mut std::collections::HashSet<String>,
) -> Company {
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
pub(super) struct Facts {
    pub(super) industry: &'static str,
    pub(super) founded: usize,
    pub(super) people: u32,
    pub(super) offices: String,
}

impl Facts {
    /// A blurb of `company` from one of [`words::BLURBS`].
    pub(super) fn blurb(&self, company: &str, template: &str) -> String {
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
pub(super) enum Section {
    Duties,
    Requirements,
    Nice,
    Benefits,
}

/// One ad, as fields a reposter edits; [`Ad::render`] writes it as text.
#[derive(Debug, Clone)]
pub(super) struct Ad {
    pub(super) company: u32,
    pub(super) field: usize,
    pub(super) title: &'static str,
    pub(super) tag: Option<&'static str>,
    pub(super) city: usize,
    pub(super) workplace: usize,
    pub(super) contract: usize,
    /// Yearly pay in whole units of the city's currency, or hourly pay in cents.
    pub(super) pay: (u32, u32),
    /// Posting day and month (of 2026); the closing date is four weeks later.
    pub(super) posted: (u8, u8),
    pub(super) reference: u32,
    /// An agency's intro, filled with the title and city when rendered (so that members of
    /// a family differ in them).
    pub(super) intro: Option<&'static str>,
    pub(super) blurb: Option<String>,
    /// The summary sentence, filled with the city and `team` when rendered.
    pub(super) summary: &'static str,
    pub(super) team: u32,
    pub(super) duties: Vec<String>,
    pub(super) requirements: Vec<String>,
    pub(super) nice: Vec<String>,
    pub(super) benefits: Vec<String>,
    pub(super) eeo: Option<String>,
    pub(super) apply: usize,
    pub(super) short: bool,
}

/// Draws pay for `field` in `city`'s currency: yearly rounded to 500 (monthly in złoty is
/// still stored yearly), hourly in cents rounded to 5.
pub(super) fn draw_pay(draw: &mut Draw, field: usize, city: usize) -> (u32, u32) {
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
pub(super) fn item(draw: &mut Draw, template: &str, city: usize) -> String {
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
pub(super) fn draw_date(draw: &mut Draw) -> (u8, u8) {
    (1 + draw.below(28) as u8, 1 + draw.below(11) as u8)
}

pub(super) fn new_ad(draw: &mut Draw, companies: &[Company], company: u32, short: bool) -> Ad {
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
    pub(super) fn date(&self, co: &Company, (day, month): (u8, u8)) -> String {
        match co.date_style {
            0 => format!("{day} {} 2026", words::MONTHS[month as usize - 1]),
            1 => format!("{} {day}, 2026", words::MONTHS[month as usize - 1]),
            2 => format!("2026-{month:02}-{day:02}"),
            _ => format!("{day:02}.{month:02}.2026"),
        }
    }

    pub(super) fn closing(&self) -> (u8, u8) {
        let (day, month) = self.posted;
        (day, month + 1)
    }

    pub(super) fn pay_text(&self, co: &Company) -> String {
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

    pub(super) fn list(&self, section: Section) -> &Vec<String> {
        match section {
            Section::Duties => &self.duties,
            Section::Requirements => &self.requirements,
            Section::Nice => &self.nice,
            Section::Benefits => &self.benefits,
        }
    }

    pub(super) fn list_mut(&mut self, section: Section) -> &mut Vec<String> {
        match section {
            Section::Duties => &mut self.duties,
            Section::Requirements => &mut self.requirements,
            Section::Nice => &mut self.nice,
            Section::Benefits => &mut self.benefits,
        }
    }

    /// The ad as one line of text.
    pub(super) fn render(&self, co: &Company) -> String {
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
