//! The vocabularies job ads are written from: fields of work with their titles, duties and
//! requirements, places, company names and the boilerplate companies reuse. All written for
//! lshscope; no ad was copied. Placeholders in braces are filled by the generator:
//! `{company}`, `{city}`, `{team}`, `{years}`, `{industry}`, `{founded}`, `{people}`,
//! `{offices}`, `{days}`, `{budget}`, `{date}`, `{ref}`, `{email}`, `{phone}`, `{title}`.

/// A field of work: what its ads ask for and pay.
pub struct Field {
    /// Second parts of company names in this field ("Northwind" + "Logistics").
    pub names: &'static [&'static str],
    pub titles: &'static [&'static str],
    /// What the company does, for blurbs: "{company} {industry}."
    pub industries: &'static [&'static str],
    pub summaries: &'static [&'static str],
    pub duties: &'static [&'static str],
    pub requirements: &'static [&'static str],
    pub nice: &'static [&'static str],
    /// Yearly pay in euros (low end of a typical range), or hourly pay when `hourly`.
    pub pay: (u32, u32),
    pub hourly: bool,
}

pub const FIELDS: &[Field] = &[
    Field {
        names: &["Systems", "Labs", "Digital", "Technologies", "Software"],
        titles: &[
            "Software Engineer",
            "Backend Developer",
            "Frontend Developer",
            "Full-Stack Developer",
            "Mobile Developer (iOS)",
            "Site Reliability Engineer",
            "QA Automation Engineer",
            "Platform Engineer",
        ],
        industries: &[
            "builds scheduling software for regional hospitals",
            "makes the payment terminals used in small shops and cafés",
            "runs an online marketplace for second-hand furniture",
            "develops route planning tools for delivery fleets",
            "writes the booking system behind several hundred dental practices",
            "provides accounting software for freelancers",
        ],
        summaries: &[
            "You will join a team of {team} engineers who own our customer-facing web application.",
            "As part of our platform group in {city}, you will help us move a ten-year-old monolith to smaller services without breaking anything.",
            "This is a hands-on role in a small team that ships to production several times a day.",
            "We are growing the team that builds the app our customers open every morning.",
        ],
        duties: &[
            "design, build and maintain services in Go and Python",
            "review pull requests and help colleagues improve their code",
            "write automated tests and keep the build fast",
            "take part in a fair on-call rotation (one week in six)",
            "work closely with product managers and designers on new features",
            "improve the monitoring and alerting of our production systems",
            "break down large pieces of work into small, shippable steps",
            "keep our APIs documented and easy to use for partners",
            "investigate performance problems and fix their causes",
            "mentor junior developers and share what you learn",
            "migrate legacy components to our cloud platform",
            "help decide which tools and libraries we adopt",
        ],
        requirements: &[
            "{years}+ years of professional software development",
            "solid experience with at least one of Go, Java, Python or TypeScript",
            "a good understanding of relational databases and SQL",
            "experience with Docker and a CI/CD pipeline",
            "familiarity with cloud platforms such as AWS, Azure or GCP",
            "the habit of writing tests before you call something done",
            "clear written English; our team works across three countries",
            "experience with REST or gRPC APIs",
            "comfort with Git and code review",
            "a degree in computer science or equivalent practical experience",
            "the ability to explain technical trade-offs to non-engineers",
            "experience running services in production",
        ],
        nice: &[
            "experience with Kubernetes",
            "contributions to open-source projects",
            "knowledge of event-driven architectures",
            "some German or Dutch",
            "an interest in accessibility",
        ],
        pay: (52_000, 95_000),
        hourly: false,
    },
    Field {
        names: &["Analytics", "Insights", "Data", "Labs"],
        titles: &[
            "Data Engineer",
            "Data Analyst",
            "Data Scientist",
            "Analytics Engineer",
            "Machine Learning Engineer",
            "Business Intelligence Developer",
        ],
        industries: &[
            "forecasts energy demand for regional utilities",
            "measures how shoppers move through retail stores",
            "helps insurers price risk with better data",
            "builds dashboards for public transport operators",
            "analyses clinical trial data for research hospitals",
        ],
        summaries: &[
            "You will turn messy operational data into reports and models the business trusts.",
            "Our data team of {team} people in {city} is looking for someone who enjoys both the plumbing and the analysis.",
            "In this role you own the pipelines that feed our pricing and forecasting models.",
            "You will be the link between our engineers and the people who make decisions with our numbers.",
        ],
        duties: &[
            "build and maintain batch and streaming pipelines",
            "model data in our warehouse so that analysts can find what they need",
            "write clear SQL and review the queries of others",
            "train, evaluate and monitor forecasting models",
            "present findings to managers in plain language",
            "set up data quality checks and chase down their failures",
            "work with engineers to instrument new product features",
            "automate reports that are still assembled by hand",
            "document datasets, their owners and their caveats",
            "run A/B tests and explain what the results do and do not show",
            "keep the cost of our cloud warehouse under control",
        ],
        requirements: &[
            "{years}+ years of experience in a data role",
            "excellent SQL",
            "good Python, including pandas or Polars",
            "experience with dbt, Airflow or a similar tool",
            "a sound grasp of statistics and experimental design",
            "experience with a cloud warehouse such as BigQuery, Snowflake or Redshift",
            "the ability to tell a story with a chart",
            "a degree in a quantitative subject",
            "care for data privacy and the GDPR",
            "experience with Spark or another distributed engine",
            "curiosity about how the business actually works",
        ],
        nice: &[
            "experience with time-series forecasting",
            "knowledge of Kafka",
            "experience with Looker or Power BI",
            "a background in the energy sector",
        ],
        pay: (48_000, 90_000),
        hourly: false,
    },
    Field {
        names: &["Care", "Health", "Clinics", "Healthcare"],
        titles: &[
            "Registered Nurse",
            "Staff Nurse (Night Shift)",
            "Healthcare Assistant",
            "Physiotherapist",
            "Pharmacy Technician",
            "Care Home Manager",
            "Midwife",
        ],
        industries: &[
            "runs six care homes across the region",
            "is a private hospital with 180 beds",
            "provides home care to older people and their families",
            "operates community clinics in towns without a hospital",
            "is a rehabilitation centre for people recovering from strokes and injuries",
        ],
        summaries: &[
            "You will care for patients on a busy {team}-bed ward with a supportive team around you.",
            "We are looking for a compassionate professional to join our team in {city}.",
            "This role combines hands-on care with coaching newer colleagues.",
            "Join a team that has been rated outstanding by inspectors two years running.",
        ],
        duties: &[
            "plan, deliver and record patient care",
            "give medication safely and keep accurate records",
            "work with doctors, therapists and families to plan discharges",
            "support residents with personal care, meals and mobility",
            "respond calmly to emergencies",
            "supervise healthcare assistants and students",
            "take part in audits and help improve our standards",
            "spot changes in a patient's condition early and escalate them",
            "keep the ward clean, stocked and safe",
            "write care plans together with residents and their families",
            "run group exercise sessions for patients recovering from surgery",
        ],
        requirements: &[
            "a current professional registration",
            "{years}+ years of clinical experience",
            "a kind, patient and respectful manner",
            "willingness to work shifts, including weekends",
            "good written and spoken English",
            "a clean background check",
            "basic life support training",
            "experience with electronic patient records",
            "the ability to stay calm under pressure",
            "a full driving licence for community visits",
            "experience with dementia care",
        ],
        nice: &[
            "experience in a surgical ward",
            "a mentoring qualification",
            "a second language",
            "experience in palliative care",
        ],
        pay: (32_000, 52_000),
        hourly: false,
    },
    Field {
        names: &["Logistics", "Freight", "Transport", "Distribution"],
        titles: &[
            "Warehouse Operative",
            "Forklift Driver",
            "Delivery Driver",
            "Logistics Coordinator",
            "Shift Supervisor (Warehouse)",
            "Stock Controller",
            "Transport Planner",
        ],
        industries: &[
            "moves groceries from farms to supermarkets",
            "delivers parcels for online shops in the region",
            "stores and ships spare parts for the car industry",
            "runs a cold-chain network for pharmaceuticals",
            "is a family-owned haulage company with 140 trucks",
        ],
        summaries: &[
            "Join our distribution centre in {city}, where we ship around 40,000 orders a day.",
            "You will keep goods moving safely and on time through a busy site.",
            "We need reliable people for our day, evening and night shifts.",
            "A steady job with overtime available and pay every week.",
        ],
        duties: &[
            "pick and pack orders accurately using a handheld scanner",
            "load and unload trucks safely",
            "drive a reach truck or counterbalance forklift",
            "deliver parcels to homes and businesses on a planned route",
            "check incoming goods against delivery notes",
            "keep your area clean, tidy and safe",
            "count stock and report differences",
            "plan routes and loads for our fleet of vans",
            "brief the shift team and track its output",
            "deal with returns and damaged goods",
            "follow food safety and hygiene rules",
        ],
        requirements: &[
            "a valid forklift licence",
            "a full driving licence with no more than three points",
            "experience in a warehouse or on a production line",
            "reliability and good timekeeping",
            "the ability to lift up to 25 kg",
            "basic computer skills",
            "willingness to work nights or weekends",
            "safety boots (we will refund the first pair)",
            "good English to follow safety instructions",
            "{years}+ years of experience in transport planning",
            "a positive attitude and a team spirit",
        ],
        nice: &[
            "a CPC card",
            "experience with a warehouse management system",
            "first aid training",
            "experience with refrigerated goods",
        ],
        pay: (13, 19),
        hourly: true,
    },
    Field {
        names: &["Kitchens", "Foods", "Dining", "Bakery"],
        titles: &[
            "Chef de Partie",
            "Sous Chef",
            "Commis Chef",
            "Kitchen Porter",
            "Barista",
            "Waiter / Waitress",
        ],
        industries: &[
            "runs four neighbourhood restaurants and a bakery",
            "operates cafés in railway stations",
            "caters weddings, conferences and private parties",
            "runs a busy gastropub by the river",
            "is a vegetarian restaurant with 80 covers",
        ],
        summaries: &[
            "Our kitchen in {city} cooks seasonal food from local suppliers, and we are hiring.",
            "We are looking for a friendly, hard-working person to join our team.",
            "A great opportunity for someone who takes pride in the details.",
            "Join a small, busy team of {team} where everyone's opinion counts.",
        ],
        duties: &[
            "prepare and cook dishes to our recipes and standards",
            "run your section during busy services",
            "keep the kitchen spotless and follow hygiene rules",
            "prepare vegetables, sauces and stocks before service",
            "wash up and look after the kitchen equipment",
            "take orders and serve food and drinks",
            "make great coffee, consistently",
            "set up and clear the dining room",
            "follow allergen rules and answer guests' questions about them",
            "order stock and check deliveries",
            "train new team members",
        ],
        requirements: &[
            "experience in a similar role",
            "a food hygiene certificate",
            "a warm, positive attitude",
            "flexibility to work evenings, weekends and holidays",
            "good spoken English",
            "the ability to work fast without cutting corners",
            "an eye for detail",
            "{years}+ years of experience in a professional kitchen",
            "experience with a till or ordering system",
            "the right to work in the country",
        ],
        nice: &[
            "a second language",
            "barista training",
            "experience in fine dining",
            "knowledge of wine",
        ],
        pay: (12, 18),
        hourly: true,
    },
    Field {
        names: &["Accounting", "Industries", "Housing", "Supplies"],
        titles: &[
            "Accountant",
            "Accounts Payable Clerk",
            "Financial Controller",
            "Payroll Specialist",
            "Credit Controller",
            "Finance Business Partner",
        ],
        industries: &[
            "is an accounting firm serving 900 small businesses",
            "manufactures packaging for the food industry",
            "runs a chain of garden centres",
            "is a housing association with 12,000 homes",
            "sells industrial tools across Europe",
        ],
        summaries: &[
            "You will join a finance team of {team} that closes the books on time, every month.",
            "We are looking for a numbers person who also enjoys talking to people.",
            "This role reports to the finance director and has real room to grow.",
            "Help us keep our finances accurate, simple and on time.",
        ],
        duties: &[
            "process supplier invoices and payments",
            "reconcile bank accounts and balance sheet items",
            "prepare the monthly management accounts",
            "run the monthly payroll for about 400 employees",
            "chase overdue customer payments politely but firmly",
            "support the year-end audit",
            "prepare VAT returns",
            "build budgets and forecasts with department heads",
            "improve our processes and controls",
            "answer questions from staff and suppliers",
            "analyse costs and explain the variances",
        ],
        requirements: &[
            "a recognised accounting qualification, or studying towards one",
            "{years}+ years of experience in a finance team",
            "strong Excel skills",
            "experience with SAP, Sage or Xero",
            "accuracy and attention to detail",
            "good communication skills",
            "the ability to meet deadlines",
            "knowledge of payroll legislation",
            "discretion with confidential information",
            "a degree in finance or a related subject",
        ],
        nice: &[
            "experience in manufacturing",
            "knowledge of IFRS",
            "experience with Power BI",
            "a second European language",
        ],
        pay: (38_000, 75_000),
        hourly: false,
    },
    Field {
        names: &["Learning", "Schools", "Academy", "Education"],
        titles: &[
            "Primary School Teacher",
            "Mathematics Teacher",
            "Teaching Assistant",
            "English Language Teacher",
            "Nursery Practitioner",
            "Special Educational Needs Coordinator",
        ],
        industries: &[
            "is an international school for pupils aged 3 to 18",
            "runs language schools for adults",
            "is a group of eleven primary schools",
            "operates day nurseries in three cities",
            "offers after-school tutoring in maths and science",
        ],
        summaries: &[
            "We are looking for an inspiring teacher to join our school in {city} from September.",
            "You will work with small classes of around {team} pupils.",
            "Join a friendly staff room where ideas are shared freely.",
            "Our pupils come from more than forty countries, and so do our staff.",
        ],
        duties: &[
            "plan and deliver engaging lessons",
            "assess pupils' progress and give useful feedback",
            "support pupils with additional needs",
            "keep in touch with parents",
            "run an after-school club",
            "work with colleagues on the curriculum",
            "look after pupils during breaks and trips",
            "prepare pupils for exams",
            "create a safe and calm classroom",
            "write reports twice a year",
        ],
        requirements: &[
            "a teaching qualification",
            "{years}+ years of teaching experience",
            "a degree in your subject",
            "a clean background check",
            "patience, warmth and a sense of humour",
            "excellent English",
            "experience with children aged 4 to 11",
            "a commitment to safeguarding",
            "the ability to manage a class confidently",
            "a CELTA or equivalent certificate",
        ],
        nice: &[
            "experience with the International Baccalaureate",
            "the ability to teach a second subject",
            "experience in special education",
            "a first aid certificate",
        ],
        pay: (34_000, 58_000),
        hourly: false,
    },
    Field {
        names: &["Building", "Construction", "Installations", "Works"],
        titles: &[
            "Electrician",
            "Plumber",
            "HVAC Technician",
            "Maintenance Engineer",
            "Carpenter",
            "Site Manager",
        ],
        industries: &[
            "builds and renovates homes for private clients",
            "maintains heating systems in offices and schools",
            "fits out shops and restaurants",
            "is a building contractor working on public projects",
            "installs solar panels and heat pumps",
        ],
        summaries: &[
            "We have a steady pipeline of work around {city} and need another skilled pair of hands.",
            "You will work on a mix of new builds and renovations.",
            "A company van, tools and a fair schedule come with this job.",
            "We are a team of {team} trades people who like doing things properly.",
        ],
        duties: &[
            "install, test and repair electrical systems",
            "fit and repair pipes, boilers and radiators",
            "service heating, ventilation and air-conditioning units",
            "carry out planned and reactive maintenance",
            "read drawings and follow specifications",
            "keep job sheets and safety paperwork up to date",
            "talk customers through the work before and after",
            "supervise subcontractors on site",
            "order materials and keep the van stocked",
            "make sure every site is left clean and safe",
        ],
        requirements: &[
            "a recognised trade qualification",
            "{years}+ years of experience in the trade",
            "a full driving licence",
            "your own hand tools",
            "a good knowledge of safety regulations",
            "a tidy, customer-friendly way of working",
            "the ability to work on your own",
            "a construction skills card",
            "experience with heat pumps",
            "willingness to join the call-out rota",
        ],
        nice: &[
            "a gas safety certificate",
            "experience with solar installations",
            "a project management course",
            "experience in commercial buildings",
        ],
        pay: (36_000, 60_000),
        hourly: false,
    },
    Field {
        names: &["Retail", "Stores", "Telecom", "Supplies"],
        titles: &[
            "Customer Service Advisor",
            "Sales Representative",
            "Account Manager",
            "Store Assistant",
            "Store Manager",
            "Call Centre Agent",
            "Office Administrator",
        ],
        industries: &[
            "sells outdoor clothing in 35 stores",
            "provides broadband to homes and small businesses",
            "is a family-run furniture retailer",
            "sells office supplies online and by phone",
            "runs a chain of pharmacies",
        ],
        summaries: &[
            "Be the friendly voice our customers hear when something goes wrong.",
            "We are opening a new store in {city} and are building the team.",
            "A role for someone who likes people, targets and a bit of variety.",
            "You will look after a portfolio of around {team} business customers.",
        ],
        duties: &[
            "answer customer calls, chats and emails",
            "solve problems on the first contact where you can",
            "advise customers and help them choose the right product",
            "meet your sales targets and celebrate when the team does",
            "keep the shop floor tidy and well stocked",
            "handle cash and card payments",
            "open and close the store",
            "visit customers and prepare offers",
            "keep our customer records up to date",
            "organise the office, post and supplies",
            "schedule the team's shifts",
        ],
        requirements: &[
            "experience in customer service or retail",
            "a friendly and professional manner",
            "good computer skills",
            "clear spoken and written English",
            "the ability to stay patient with difficult callers",
            "{years}+ years of experience in sales",
            "a driving licence for customer visits",
            "availability on Saturdays",
            "organisation and reliability",
            "experience with a CRM system",
        ],
        nice: &[
            "a second language",
            "experience in telecoms",
            "team leading experience",
            "knowledge of outdoor sports",
        ],
        pay: (26_000, 48_000),
        hourly: false,
    },
    Field {
        names: &["Hotels", "Hospitality", "Inns", "Resorts"],
        titles: &[
            "Hotel Receptionist",
            "Housekeeping Supervisor",
            "Room Attendant",
            "Night Porter",
            "Guest Relations Agent",
            "Concierge",
        ],
        industries: &[
            "is a boutique hotel with 62 rooms in the old town",
            "is a seaside hotel and spa",
            "runs three city hotels for business travellers",
            "rents out holiday apartments along the coast",
        ],
        summaries: &[
            "Our hotel in {city} welcomes guests from all over the world, and we want you to be part of that.",
            "We are looking for a friendly, hard-working person to join our front-of-house team.",
            "A great opportunity for someone who takes pride in the details.",
            "Join a team of {team} that guests mention by name in their reviews.",
        ],
        duties: &[
            "welcome guests and make them feel at home",
            "check guests in and out and handle payments",
            "answer the phone and reply to booking emails",
            "clean and prepare rooms to a high standard",
            "check every room before guests arrive",
            "deal with complaints calmly and fairly",
            "give guests tips on restaurants and sights",
            "look after the building at night and do security rounds",
            "keep the lobby and public areas tidy",
            "train new team members",
            "work with maintenance to fix problems fast",
        ],
        requirements: &[
            "experience in a hotel or a similar role",
            "a warm, positive attitude",
            "flexibility to work evenings, weekends and holidays",
            "good spoken English",
            "experience with a property management system",
            "an eye for detail",
            "the right to work in the country",
            "{years}+ years of experience in housekeeping",
            "the ability to stay calm when the lobby is full",
            "basic computer skills",
        ],
        nice: &[
            "a second language",
            "a good knowledge of the city",
            "first aid training",
            "experience in a luxury hotel",
        ],
        pay: (12, 18),
        hourly: true,
    },
];

/// Title decorations that leave the job as it is (an edit a reposter makes).
pub const TITLE_TAGS: &[&str] = &[
    " (m/f/d)",
    " – immediate start",
    " (12-month contract)",
    " – urgent",
    " (part-time possible)",
    " – relocation support",
];

/// A city, the country's currency and how large pay is there relative to the euro figures.
pub struct City {
    pub name: &'static str,
    pub currency: Currency,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Currency {
    Eur,
    Gbp,
    Usd,
    Chf,
    Sek,
    Cad,
    Aud,
    Pln,
}

impl Currency {
    /// Pay there in this currency per euro of pay in the euro area (rough).
    pub fn scale(self) -> f64 {
        match self {
            Currency::Eur => 1.0,
            Currency::Gbp => 0.9,
            Currency::Usd => 1.35,
            Currency::Chf => 1.6,
            Currency::Sek => 10.5,
            Currency::Cad => 1.5,
            Currency::Aud => 1.7,
            Currency::Pln => 2.2,
        }
    }
}

pub const CITIES: &[City] = &[
    City {
        name: "Berlin",
        currency: Currency::Eur,
    },
    City {
        name: "München",
        currency: Currency::Eur,
    },
    City {
        name: "Hamburg",
        currency: Currency::Eur,
    },
    City {
        name: "Köln",
        currency: Currency::Eur,
    },
    City {
        name: "Wien",
        currency: Currency::Eur,
    },
    City {
        name: "Amsterdam",
        currency: Currency::Eur,
    },
    City {
        name: "Rotterdam",
        currency: Currency::Eur,
    },
    City {
        name: "Dublin",
        currency: Currency::Eur,
    },
    City {
        name: "Lyon",
        currency: Currency::Eur,
    },
    City {
        name: "Barcelona",
        currency: Currency::Eur,
    },
    City {
        name: "Lisbon",
        currency: Currency::Eur,
    },
    City {
        name: "Helsinki",
        currency: Currency::Eur,
    },
    City {
        name: "London",
        currency: Currency::Gbp,
    },
    City {
        name: "Manchester",
        currency: Currency::Gbp,
    },
    City {
        name: "Leeds",
        currency: Currency::Gbp,
    },
    City {
        name: "Bristol",
        currency: Currency::Gbp,
    },
    City {
        name: "Edinburgh",
        currency: Currency::Gbp,
    },
    City {
        name: "Cardiff",
        currency: Currency::Gbp,
    },
    City {
        name: "Austin",
        currency: Currency::Usd,
    },
    City {
        name: "Denver",
        currency: Currency::Usd,
    },
    City {
        name: "Chicago",
        currency: Currency::Usd,
    },
    City {
        name: "Pittsburgh",
        currency: Currency::Usd,
    },
    City {
        name: "Zürich",
        currency: Currency::Chf,
    },
    City {
        name: "Genève",
        currency: Currency::Chf,
    },
    City {
        name: "Malmö",
        currency: Currency::Sek,
    },
    City {
        name: "Göteborg",
        currency: Currency::Sek,
    },
    City {
        name: "Montréal",
        currency: Currency::Cad,
    },
    City {
        name: "Toronto",
        currency: Currency::Cad,
    },
    City {
        name: "Melbourne",
        currency: Currency::Aud,
    },
    City {
        name: "Kraków",
        currency: Currency::Pln,
    },
    City {
        name: "Wrocław",
        currency: Currency::Pln,
    },
];

/// Where the work happens.
pub const WORKPLACES: &[&str] = &[
    "on site",
    "hybrid",
    "remote",
    "hybrid, 2 days in the office",
];

pub const CONTRACTS: &[&str] = &[
    "Full-time, permanent",
    "Full-time, 12-month fixed term",
    "Part-time (24 hours a week)",
    "Permanent, 40 hours a week",
    "Full-time or part-time",
];

/// Company names: a first part and a second part that sounds like a business.
pub const NAME_FIRST: &[&str] = &[
    "Northwind",
    "Bluefern",
    "Harbour",
    "Kestrel",
    "Larchmont",
    "Oakridge",
    "Silverline",
    "Brightwater",
    "Copperleaf",
    "Redmoor",
    "Stonebridge",
    "Fairhaven",
    "Greyhill",
    "Ashby",
    "Meridian",
    "Willowbank",
    "Highgate",
    "Lindqvist",
    "Vandermeer",
    "Castellan",
    "Moreau",
    "Novak",
    "Halvorsen",
    "Pellegrini",
    "Brightpath",
    "Summit",
    "Tidewater",
    "Juniper",
    "Riverside",
    "Eastgate",
    "Westbrook",
    "Foxglove",
    "Morrow",
    "Beacon",
    "Orchard",
    "Saltmarsh",
    "Granite",
    "Heron",
    "Linden",
    "Marlow",
];

/// Second parts of company names in any field.
pub const NAME_SECOND: &[&str] = &[
    "Partners",
    "Group",
    "Solutions",
    "& Sons",
    "Services",
    "Holdings",
    "Collective",
    "& Co",
];

/// Fields every business hires in (indices into [`FIELDS`]): software, data, finance, sales
/// and office work.
pub const EVERY_BUSINESS: &[usize] = &[0, 1, 5, 8];

/// Company blurbs. Each company keeps one, in every ad it posts: the boilerplate that makes
/// unrelated ads of one company look alike.
pub const BLURBS: &[&str] = &[
    "{company} {industry}. Founded in {founded}, we now employ {people} people in {offices}.",
    "At {company}, we believe good work starts with good people. The company {industry} and has done so since {founded}.",
    "{company} is a fast-growing business that {industry}. Our {people} colleagues work from {offices} and from home.",
    "Who we are: {company} {industry}. We are independent, profitable and proud of a staff turnover well below the industry average.",
    "Since {founded}, {company} {industry}. We are a team of {people} people who care about doing things properly, and we are still growing.",
    "{company} {industry}. We are a certified great place to work, with {people} employees in {offices}.",
    "Join {company}! In short, our business {industry}. Our people say the best thing about working here is each other.",
    "{company} was founded in {founded} and {industry}. Today we serve customers in more than twenty countries from {offices}.",
];

/// Agency intros for re-used templates: one text filled with many titles and cities.
pub const AGENCY_INTROS: &[&str] = &[
    "{company} is recruiting a {title} on behalf of a well-established client in {city}. This is an excellent opportunity to join a growing organisation with a strong reputation.",
    "Our client, a leading employer in the {city} area, is looking for an experienced {title} to join their team on a permanent basis.",
    "We are currently working with a respected business in {city} that needs a {title}. If you are looking for your next step, read on!",
    "Exciting opportunity! {company} has been asked to find a motivated {title} for a client based in {city}. Competitive salary and benefits.",
];

/// Benefits any employer offers; a company keeps its pick in every ad.
pub const BENEFITS: &[&str] = &[
    "{days} days of paid holiday plus public holidays",
    "a company pension with matched contributions",
    "private health insurance",
    "a subsidised gym membership",
    "a public transport pass",
    "an extra day off on your birthday",
    "enhanced parental leave",
    "a cycle-to-work scheme",
    "employee discounts",
    "a friendly, supportive team",
    "regular team events",
    "an employee assistance programme",
    "clear paths for promotion",
];

/// Benefits of office jobs (fields paid yearly).
pub const OFFICE_BENEFITS: &[&str] = &[
    "a yearly learning budget of {budget}",
    "flexible working hours",
    "free lunch on office days",
    "a laptop and a home-office allowance",
];

/// Benefits of shift work (fields paid by the hour).
pub const SHIFT_BENEFITS: &[&str] = &[
    "free parking on site",
    "staff meals on every shift",
    "paid overtime",
    "weekly pay",
    "uniform provided",
];

/// Equal-opportunity lines: few variants, shared by many companies (they come with the
/// hiring software), so they make unrelated ads overlap a little.
pub const EEO: &[&str] = &[
    "We are an equal opportunity employer. We welcome applications from everyone, regardless of age, disability, gender, ethnicity, religion or sexual orientation.",
    "{company} is committed to diversity and inclusion. All qualified applicants will receive consideration for employment without regard to race, colour, religion, sex, sexual orientation, gender identity, national origin, disability or age.",
    "We value diversity and are committed to creating an inclusive environment for all employees. If you need any adjustments during the application process, please let us know.",
    "Applications from people with disabilities are expressly welcome. We are happy to make reasonable adjustments at interview.",
    "Please note that we can only consider applicants with the right to work in the country. Agencies: no unsolicited CVs, please.",
];

/// How to apply; `{date}` is the closing date, `{ref}` the reference.
pub const APPLY: &[&str] = &[
    "Apply by {date} with your CV and a short cover letter, quoting reference {ref}.",
    "Interested? Send your CV to {email} before {date} (ref. {ref}).",
    "To apply, click \"Apply now\" and upload your CV. Closing date: {date}. Reference: {ref}.",
    "Questions? Call us on {phone}. Applications close on {date}; please mention {ref}.",
    "Apply online by {date}. We read every application and reply within two weeks. Ref: {ref}.",
];

/// Section headings: a company uses one style in all its ads.
pub struct Headings {
    pub duties: &'static str,
    pub requirements: &'static str,
    pub nice: &'static str,
    pub benefits: &'static str,
}

pub const HEADINGS: &[Headings] = &[
    Headings {
        duties: "What you will do:",
        requirements: "What we are looking for:",
        nice: "Nice to have:",
        benefits: "What we offer:",
    },
    Headings {
        duties: "Your tasks:",
        requirements: "Your profile:",
        nice: "A plus:",
        benefits: "Our offer:",
    },
    Headings {
        duties: "Responsibilities:",
        requirements: "Requirements:",
        nice: "Desirable:",
        benefits: "Benefits:",
    },
    Headings {
        duties: "The role:",
        requirements: "About you:",
        nice: "Bonus points for:",
        benefits: "Perks:",
    },
    Headings {
        duties: "Key duties include:",
        requirements: "The successful candidate will have:",
        nice: "It would be great if you also had:",
        benefits: "In return you will receive:",
    },
];

pub const MONTHS: &[&str] = &[
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
