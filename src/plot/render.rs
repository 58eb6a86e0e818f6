//! From a figure to a file: fonts, the size check, drawing as SVG and rasterizing to PNG.

use std::path::Path;
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;

use lshscope_core::{Error, Result};

use super::{ImageFormat, image_format};

pub(super) fn register_fonts() {
    static FONTS: Once = Once::new();
    FONTS.call_once(|| {
        // The embedded DejaVu files are valid TrueType; failing here is a build defect.
        plotters::style::register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular())
            .map_err(|_| ())
            .expect("embedded DejaVu Sans parses");
        plotters::style::register_font("sans-serif", FontStyle::Bold, dejavu::sans::bold())
            .map_err(|_| ())
            .expect("embedded DejaVu Sans Bold parses");
    });
}

fn check_size(width: u32, height: u32) -> Result<()> {
    if !(200..=10_000).contains(&width) || !(150..=10_000).contains(&height) {
        return Err(Error::usage(format!(
            "image size {width}×{height} is out of range: width 200–10000, height 150–10000"
        )));
    }
    Ok(())
}

/// Something that can draw itself on any plotters backend.
pub(super) trait Figure {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB>;
}

pub(super) type DrawResult<DB> =
    std::result::Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

pub(super) fn write_figure(
    path: &Path,
    width: u32,
    height: u32,
    figure: &impl Figure,
) -> Result<()> {
    check_size(width, height)?;
    let format = image_format(path)?;
    register_fonts();
    let failed = |e: String| Error::internal(format!("{}: drawing failed: {e}", path.display()));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        figure.draw(&root).map_err(|e| failed(e.to_string()))?;
        root.present().map_err(|e| failed(e.to_string()))?;
    }
    match format {
        ImageFormat::Svg => {
            lshscope_core::io::atomic::write_atomically(path, |w| w.write_all(svg.as_bytes()))
        }
        ImageFormat::Png => {
            let rgb = rasterize(&svg, width, height).map_err(failed)?;
            lshscope_core::io::atomic::write_atomically(path, |w| {
                encode_png(w, width, height, &rgb)
            })
        }
    }
}

/// The fonts the SVG's text is drawn with when rasterized: the embedded DejaVu Sans (regular
/// and bold) as `sans-serif`, the family plotters names, so the PNG's text has the metrics
/// plotters laid it out with. Parsed once.
fn raster_fonts() -> std::sync::Arc<resvg::usvg::fontdb::Database> {
    static FONTS: std::sync::OnceLock<std::sync::Arc<resvg::usvg::fontdb::Database>> =
        std::sync::OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = resvg::usvg::fontdb::Database::new();
            db.load_font_data(dejavu::sans::regular().to_vec());
            db.load_font_data(dejavu::sans::bold().to_vec());
            db.set_sans_serif_family("DejaVu Sans");
            std::sync::Arc::new(db)
        })
        .clone()
}

/// The SVG that plotters drew, rasterized by resvg (antialiased lines, markers and text) on
/// white: RGB pixels, row by row. Rasterizing the SVG, rather than drawing again with
/// plotters' bitmap backend (which does not antialias lines), makes the PNG the same picture
/// as the SVG, smooth, and far smaller once compressed (its edges are few and regular).
pub(super) fn rasterize(
    svg: &str,
    width: u32,
    height: u32,
) -> std::result::Result<Vec<u8>, String> {
    use resvg::tiny_skia::{Color, Pixmap, Transform};
    let options = resvg::usvg::Options {
        font_family: "DejaVu Sans".to_string(),
        fontdb: raster_fonts(),
        ..Default::default()
    };
    let tree = resvg::usvg::Tree::from_str(svg, &options).map_err(|e| e.to_string())?;
    let mut pixmap =
        Pixmap::new(width, height).ok_or_else(|| format!("no {width}×{height} pixmap"))?;
    pixmap.fill(Color::WHITE);
    resvg::render(&tree, Transform::default(), &mut pixmap.as_mut());
    // Opaque everywhere (white underneath), so premultiplied RGBA is plain RGBA: drop alpha.
    Ok(pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect())
}

/// Encodes RGB pixels as PNG at the `Default` deflate level. The encoder's own default is its
/// fastest level, which left the three-curve S-curve (1200×800) at 535 kB; `Default` makes it
/// 85 kB in 40 ms (test profile), and adaptive filters at the `Best` level only 6 % smaller
/// (80 kB) for four times the time.
fn encode_png(
    w: &mut dyn std::io::Write,
    width: u32,
    height: u32,
    rgb: &[u8],
) -> std::io::Result<()> {
    let mut encoder = png::Encoder::new(w, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Default);
    let mut writer = encoder.write_header().map_err(std::io::Error::other)?;
    writer
        .write_image_data(rgb)
        .map_err(std::io::Error::other)?;
    writer.finish().map_err(std::io::Error::other)
}
