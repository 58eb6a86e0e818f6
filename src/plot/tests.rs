use super::layout::count_tick_label;
use super::render::{Figure, rasterize, register_fonts};
use super::*;

#[test]
fn bins_cover_zero_to_one() {
    let bins = histogram_bins(&[0.0, 0.05, 0.1, 0.999, 1.0], 10);
    assert_eq!(bins.len(), 10);
    assert_eq!(bins[0].count, 2);
    assert_eq!(bins[1].count, 1);
    assert_eq!(bins[9].count, 2);
    assert_eq!(bins.iter().map(|b| b.count).sum::<u64>(), 5);
    // 3/20 is 2.9999999999999996 twentieths in floating point; it still belongs to bin 3,
    // as in the explorer.
    let edge = histogram_bins(&[3.0 / 20.0], 20);
    assert_eq!(edge[3].count, 1);
}

#[test]
fn count_ticks_are_compact_and_whole() {
    assert_eq!(count_tick_label(&0.0), "0");
    assert_eq!(count_tick_label(&20.0), "20");
    assert_eq!(count_tick_label(&250e6), "250.0 M");
    assert_eq!(count_tick_label(&3e9), "3.0 G");
    // Floating-point noise in a tick value is still a whole count.
    assert_eq!(count_tick_label(&300_000.000_000_06), "300.0 k");
    assert_eq!(count_tick_label(&0.5), "");
    assert_eq!(count_tick_label(&2.5), "");
}

/// A `<text>` element of plotters' SVG: position, anchor, rotation and content.
struct SvgText {
    x: i32,
    y: i32,
    anchor: String,
    rotated: bool,
    text: String,
}

fn svg_texts(svg: &str) -> Vec<SvgText> {
    let attr = |tag: &str, name: &str| -> Option<String> {
        let key = format!(" {name}=\"");
        let at = tag.find(&key)? + key.len();
        Some(tag[at..at + tag[at..].find('"')?].to_string())
    };
    svg.split("<text")
        .skip(1)
        .map(|element| {
            let tag_end = element.find('>').unwrap();
            let tag = &element[..tag_end];
            let body = &element[tag_end + 1..element.find("</text>").unwrap()];
            SvgText {
                x: attr(tag, "x").unwrap().parse().unwrap(),
                y: attr(tag, "y").unwrap().parse().unwrap(),
                anchor: attr(tag, "text-anchor").unwrap(),
                rotated: attr(tag, "transform").is_some(),
                text: body.trim().to_string(),
            }
        })
        .collect()
}

/// Draws `figure` as SVG of `plot`'s size and rasterizes it as the PNG export does;
/// returns the SVG text and the RGB pixels.
fn render(figure: &HistogramFigure) -> (String, Vec<u8>) {
    register_fonts();
    let (w, h) = (figure.plot.width, figure.plot.height);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
        figure.draw(&root).unwrap();
        root.present().unwrap();
    }
    let rgb = rasterize(&svg, w, h).unwrap();
    (svg, rgb)
}

#[test]
fn big_counts_get_compact_ticks_clear_of_the_axis_title() {
    // A 1 M-document corpus: one bin holds 9 digits of pairs.
    let mut bins = histogram_bins(&[], 50);
    for (i, bin) in bins.iter_mut().enumerate() {
        bin.count = 123_456_789 / (i as u64 + 1);
    }
    for log_counts in [false, true] {
        let plot = HistogramPlot {
            bins: bins.clone(),
            curve: Some(CurveSpec { bands: 20, rows: 5 }),
            threshold: Some(0.8),
            log_counts,
            estimated: None,
            precision: Vec::new(),
            measured: Vec::new(),
            width: 1200,
            height: 800,
        };
        let figure = HistogramFigure {
            plot: &plot,
            similarity_floor: None,
        };
        let (svg, rgb) = render(&figure);
        let texts = svg_texts(&svg);
        let title = texts
            .iter()
            .find(|t| t.rotated && t.text.starts_with("pairs per bin"))
            .expect("count axis title");
        // The count axis's tick labels: right-aligned, left of the plotting area.
        let ticks: Vec<&SvgText> = texts
            .iter()
            .filter(|t| !t.rotated && t.anchor == "end" && t.x < 300)
            .collect();
        let tick_texts: Vec<&str> = ticks.iter().map(|t| t.text.as_str()).collect();
        assert!(tick_texts.contains(&"100.0 M"), "{tick_texts:?}");
        // The legend's total is grouped like every count the tool prints.
        let total: u64 = bins.iter().map(|b| b.count).sum();
        let grouped = format!(
            "{} pairs in all",
            lshscope_core::util::numfmt::thousands(total)
        );
        assert!(grouped.contains(','), "{grouped}");
        assert!(
            texts.iter().any(|t| t.text.ends_with(&grouped)),
            "no legend with {grouped:?}"
        );
        assert!(
            tick_texts.iter().all(|t| t.len() <= 7),
            "long tick labels: {tick_texts:?}"
        );

        // Measured with the font both backends lay text out with.
        let mut measure = String::new();
        let area = SVGBackend::with_string(&mut measure, (100, 100)).into_drawing_area();
        let label_style = TextStyle::from(("sans-serif", 20.0).into_font());
        let title_style = TextStyle::from(("sans-serif", 24.0).into_font());
        let labels_left = ticks
            .iter()
            .map(|t| t.x - area.estimate_text_size(&t.text, &label_style).unwrap().0 as i32)
            .min()
            .unwrap();
        // Turned upright with its top at x, the title spans x to x + its height.
        let title_right = title.x
            + area
                .estimate_text_size(&title.text, &title_style)
                .unwrap()
                .1 as i32;
        assert!(
            title_right < labels_left,
            "log {log_counts}: the axis title (to x = {title_right}) runs into the tick \
             labels (from x = {labels_left})"
        );

        // In the PNG too: between them, over the height of the labels, not one pixel is
        // drawn.
        let top = ticks.iter().map(|t| t.y).min().unwrap() - 15;
        let bottom = ticks.iter().map(|t| t.y).max().unwrap() + 15;
        for y in top..=bottom {
            for x in title_right..labels_left {
                let at = (y as usize * 1200 + x as usize) * 3;
                assert_eq!(
                    &rgb[at..at + 3],
                    &[255, 255, 255],
                    "log {log_counts}: ink at ({x}, {y}) between the axis title and the \
                     tick labels"
                );
            }
        }
    }
}

#[test]
fn extension_decides_format() {
    assert_eq!(image_format(Path::new("a.SVG")).unwrap(), ImageFormat::Svg);
    assert_eq!(image_format(Path::new("a.png")).unwrap(), ImageFormat::Png);
    assert!(image_format(Path::new("a.jpg")).is_err());
    assert!(image_format(Path::new("a")).is_err());
}
