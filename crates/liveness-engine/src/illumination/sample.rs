//! What one analysed frame keeps for the light check: mean colours of the face's centre and
//! of its rim (the parts of a curved face that turn away from the screen), of the face's
//! darker and brighter halves (a glare adds the same light to both, a reflection multiplies
//! each by its own brightness), of the margin right around the face (where a print's paper
//! is), of the outline ring just outside the face above the ears (where a sheet trimmed round
//! the head still has paper), and of the frame's border, where the room is.

use face_engine::geometry::BoundingBox;
use image::RgbImage;

/// The face ellipse's half-width and half-height in face-box widths and heights.
const HALF_WIDTH: f32 = 0.5;
const HALF_HEIGHT: f32 = 0.6;
/// The centre disc and the rim ring, in ellipse radii.
const CENTRE: f32 = 0.45;
const RIM: (f32, f32) = (0.65, 0.95);
/// The part of the face split into darker and brighter halves.
const BODY: f32 = 0.8;
/// The margin ring around the face, in ellipse radii: beyond the ears and most hair, on a
/// print still its paper (a face printed on a sheet leaves paper to two face widths and more
/// on every side).
const MARGIN: (f32, f32) = (1.6, 2.1);
/// The margin's lower edge below the face's centre, in ellipse radii: the neck and chest below
/// it are as near the screen as the face.
const MARGIN_BELOW: f32 = 0.3;
/// The outline ring just outside the face's ellipse, in ellipse radii, and only above this
/// many radii over the face's centre (beyond the ears, which reach from the eyes to the nose's
/// foot): the room and the hairline behind a live head, still paper on a sheet trimmed round
/// the head (issue 66: `liveness_rig`'s trimmed sheet keeps paper to 1.5 radii either side and
/// 1.4 above).
const OUTLINE: (f32, f32) = (1.15, 1.4);
const OUTLINE_ABOVE: f32 = 0.3;
/// Share of the frame's width and height taken as its border.
const BORDER: f32 = 0.12;
/// Border pixels closer to the face than this many face boxes (around its centre) are left
/// out: hair, ears and shoulders are as near the screen as the face.
const FACE_CLEARANCE: f32 = 1.4;
/// Every this many pixels are read, both ways.
const STRIDE: usize = 2;

/// Mean linear colours (0..1, the sRGB encoding undone) of one frame's regions.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LightSample {
    /// The centre of the face ellipse (forehead, eyes, nose, mouth).
    pub centre: [f32; 3],
    /// The rim of the face ellipse (temples, cheeks, jaw).
    pub rim: [f32; 3],
    /// The darker and the brighter half of the face's pixels.
    pub darker: [f32; 3],
    pub brighter: [f32; 3],
    /// The margin ring right around the face, above its chin (`MARGIN`): the room (and
    /// some hair) behind a live head, the paper around a printed face.
    pub margin: [f32; 3],
    /// Pixels read in the margin.
    pub margin_pixels: u32,
    /// The outline ring just outside the face, above the ears (`OUTLINE`): the room and the
    /// hairline behind a live head, the paper of a sheet trimmed round it.
    pub outline: [f32; 3],
    /// Pixels read in the outline ring.
    pub outline_pixels: u32,
    /// The frame's top and side borders, away from the face.
    pub surround: [f32; 3],
    /// Pixels read in the border (none when the face fills the frame).
    pub surround_pixels: u32,
    /// The frame was set aside by an overloaded server's mailbox (`crate::mailbox`), not
    /// analysed or sampled in its turn: its arrival time says less about when it was captured.
    pub from_backlog: bool,
    /// The frame carried no capture time (`crate::capture_time`) and is timed by its arrival:
    /// its time holds the network's round trip, which the delay search may not reach.
    pub timed_by_arrival: bool,
    /// The client said its camera's exposure and white balance were held fixed for this frame
    /// (`crate::capture_time`). A claim, never verified: it only lets findings that need a
    /// camera held still count where the frame shows no room to measure against.
    pub camera_locked: bool,
}

impl LightSample {
    /// Reads the regions of `rgb` around the face `bbox`.
    pub fn read(rgb: &RgbImage, bbox: &BoundingBox) -> Self {
        Self::read_visiting::<RowByRow>(rgb, bbox)
    }

    /// [`Self::read`], with the face's and the margin's rectangles visited by `V`.
    fn read_visiting<V: VisitRect>(rgb: &RgbImage, bbox: &BoundingBox) -> Self {
        let c = bbox.center();
        let (a, b) = (HALF_WIDTH * bbox.width, HALF_HEIGHT * bbox.height);
        let ellipse = Ellipse {
            centre: (c.x, c.y),
            half_axes: (a.max(1.0), b.max(1.0)),
        };
        let face = Rect {
            x0: c.x - a,
            y0: c.y - b,
            x1: c.x + a,
            y1: c.y + b,
        };
        let table = linear_table();
        // one pass over the face box reads each pixel's radius and linear colour once; the
        // body's pixels are kept, in reading order, for the split into darker and brighter
        let (mut centre, mut rim, mut body) = (Mean::default(), Mean::default(), Mean::default());
        let mut body_pixels = Vec::with_capacity(face.pixels_read(rgb));
        V::visit(face, rgb, &ellipse, |_, r, pixel| {
            let linear = linear(table, pixel);
            if r < CENTRE {
                centre.add(linear);
            }
            if (RIM.0..RIM.1).contains(&r) {
                rim.add(linear);
            }
            if r < BODY {
                body.add(linear);
                body_pixels.push((linear, luminance(linear)));
            }
        });
        let split = luminance(body.finish().0);
        let (mut darker, mut brighter) = (Mean::default(), Mean::default());
        for (linear, luma) in body_pixels {
            match luma < split {
                true => darker.add(linear),
                false => brighter.add(linear),
            }
        }
        let (centre, rim, darker, brighter) = (
            centre.finish(),
            rim.finish(),
            darker.finish(),
            brighter.finish(),
        );
        let (surround, surround_pixels) = surround_mean(rgb, bbox);
        let margin_rect = Rect {
            x0: c.x - MARGIN.1 * a,
            y0: c.y - MARGIN.1 * b,
            x1: c.x + MARGIN.1 * a,
            y1: c.y + MARGIN_BELOW * b,
        };
        // one pass over the margin's rectangle reads the outline ring inside it too
        let (mut margin, mut outline) = (Mean::default(), Mean::default());
        let outline_bottom = c.y - OUTLINE_ABOVE * b;
        V::visit(margin_rect, rgb, &ellipse, |y, r, pixel| {
            if (MARGIN.0..MARGIN.1).contains(&r) {
                margin.add(linear(table, pixel));
            } else if (OUTLINE.0..OUTLINE.1).contains(&r) && (y as f32) < outline_bottom {
                outline.add(linear(table, pixel));
            }
        });
        let ((margin, margin_pixels), (outline, outline_pixels)) =
            (margin.finish(), outline.finish());
        Self {
            centre: centre.0,
            rim: rim.0,
            darker: darker.0,
            brighter: brighter.0,
            margin,
            margin_pixels,
            outline,
            outline_pixels,
            surround,
            surround_pixels,
            from_backlog: false,
            timed_by_arrival: false,
            camera_locked: false,
        }
    }
}

/// sRGB byte → linear light, 0..1: the camera's encoding undone, so a reflection scales every
/// pixel's light alike (in sRGB a dark pixel's value moves more, relatively, than a bright
/// one's).
fn linear_table() -> &'static [f32; 256] {
    static TABLE: std::sync::OnceLock<[f32; 256]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| std::array::from_fn(|v| super::srgb_to_linear(v as u8)))
}

/// A pixel's linear colour, looked up in [`linear_table`]'s `table`.
fn linear(table: &[f32; 256], pixel: [u8; 3]) -> [f32; 3] {
    pixel.map(|v| table[v as usize])
}

/// Relative luminance of a linear colour.
pub fn luminance(rgb: [f32; 3]) -> f32 {
    0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
}

#[derive(Debug, Clone, Copy)]
struct Rect {
    x0: f32,
    y0: f32,
    x1: f32,
    y1: f32,
}

impl Rect {
    /// The columns and rows `x0..x1`, `y0..y1` of the rectangle clipped to the image.
    fn clipped(self, rgb: &RgbImage) -> (u32, u32, u32, u32) {
        let (w, h) = (rgb.width() as f32, rgb.height() as f32);
        (
            self.x0.clamp(0.0, w) as u32,
            self.x1.clamp(0.0, w) as u32,
            self.y0.clamp(0.0, h) as u32,
            self.y1.clamp(0.0, h) as u32,
        )
    }

    /// How many pixels [`Self::for_each_in`] reads.
    fn pixels_read(self, rgb: &RgbImage) -> usize {
        let (x0, x1, y0, y1) = self.clipped(rgb);
        let reads = |from: u32, to: u32| to.saturating_sub(from).div_ceil(STRIDE as u32) as usize;
        reads(x0, x1) * reads(y0, y1)
    }

    /// Calls `read` with each pixel of the rectangle (clipped to the image) read, every
    /// [`STRIDE`] both ways, row by row: its row, its radius in `ellipse` and its colour. A
    /// column's and a row's share of the radius are worked out once, and the pixel is read
    /// from its row without a bounds check of its own: the same floating-point operations, so
    /// the same radii bit for bit.
    fn for_each_in(
        self,
        rgb: &RgbImage,
        ellipse: &Ellipse,
        mut read: impl FnMut(u32, f32, [u8; 3]),
    ) {
        let (x0, x1, y0, y1) = self.clipped(rgb);
        let ((cx, cy), (a, b)) = (ellipse.centre, ellipse.half_axes);
        let columns: Vec<(usize, f32)> = (x0..x1)
            .step_by(STRIDE)
            .map(|x| {
                let u = (x as f32 - cx) / a;
                (x as usize * 3, u * u)
            })
            .collect();
        let row_bytes = rgb.width() as usize * 3;
        let raw = rgb.as_raw();
        for y in (y0..y1).step_by(STRIDE) {
            let v = (y as f32 - cy) / b;
            let vv = v * v;
            let row = &raw[y as usize * row_bytes..][..row_bytes];
            for &(at, uu) in &columns {
                read(y, (uu + vv).sqrt(), [row[at], row[at + 1], row[at + 2]]);
            }
        }
    }
}

/// How the reading visits a rectangle's pixels for the ellipse's regions: each pixel read (the
/// rectangle clipped to the image, every [`STRIDE`] both ways, row by row) with its row, its
/// radius in the ellipse and its colour. The reading's one seam, so that its tests can hold the
/// row-by-row visit against the per-pixel form it replaced.
trait VisitRect {
    fn visit(rect: Rect, rgb: &RgbImage, ellipse: &Ellipse, read: impl FnMut(u32, f32, [u8; 3]));
}

/// The production visit: [`Rect::for_each_in`].
struct RowByRow;

impl VisitRect for RowByRow {
    fn visit(rect: Rect, rgb: &RgbImage, ellipse: &Ellipse, read: impl FnMut(u32, f32, [u8; 3])) {
        rect.for_each_in(rgb, ellipse, read);
    }
}

/// The face ellipse the regions are rings of: its centre and half-axes (at least a pixel), in
/// pixels.
#[derive(Debug, Clone, Copy)]
struct Ellipse {
    centre: (f32, f32),
    half_axes: (f32, f32),
}

/// A running mean of linear colours, summed in f64 in reading order.
#[derive(Debug, Default)]
struct Mean {
    sum: [f64; 3],
    pixels: u32,
}

impl Mean {
    fn add(&mut self, linear: [f32; 3]) {
        for (sum, value) in self.sum.iter_mut().zip(linear) {
            *sum += f64::from(value);
        }
        self.pixels += 1;
    }

    /// The mean colour and how many pixels it holds; zeros when none.
    fn finish(&self) -> ([f32; 3], u32) {
        match self.pixels {
            0 => ([0.0; 3], 0),
            n => (self.sum.map(|s| (s / f64::from(n)) as f32), n),
        }
    }
}

/// The top border and the upper 60% of the side borders, without the face's neighbourhood.
/// Read row by row on the [`STRIDE`] grid: the top rows whole, the rows below only across the
/// side borders.
fn surround_mean(rgb: &RgbImage, bbox: &BoundingBox) -> ([f32; 3], u32) {
    let (w, h) = (rgb.width() as f32, rgb.height() as f32);
    let c = bbox.center();
    let (half_w, half_h) = (
        FACE_CLEARANCE * bbox.width / 2.0,
        FACE_CLEARANCE * bbox.height / 2.0,
    );
    let near_face =
        |x: u32, y: u32| (x as f32 - c.x).abs() < half_w && (y as f32 - c.y).abs() < half_h;
    // the first grid column at or past `bound`
    let grid_from =
        |bound: f32| (bound.max(0.0).ceil() as u32).div_ceil(STRIDE as u32) * STRIDE as u32;
    let width = rgb.width();
    let left_end = grid_from(BORDER * w).min(width);
    let right_start = grid_from((1.0 - BORDER) * w).clamp(left_end, width);
    let table = linear_table();
    let (raw, row_bytes) = (rgb.as_raw(), width as usize * 3);
    let mut mean = Mean::default();
    for y in (0..(0.6 * h).clamp(0.0, h) as u32).step_by(STRIDE) {
        let top = (y as f32) < BORDER * h;
        let middle_end = if top { right_start } else { left_end };
        let columns = (0..left_end)
            .step_by(STRIDE)
            .chain((left_end..middle_end).step_by(STRIDE))
            .chain((right_start..width).step_by(STRIDE));
        let row = &raw[y as usize * row_bytes..][..row_bytes];
        for x in columns.filter(|&x| !near_face(x, y)) {
            let at = x as usize * 3;
            mean.add(linear(table, [row[at], row[at + 1], row[at + 2]]));
        }
    }
    mean.finish()
}

#[cfg(test)]
#[path = "sample_tests.rs"]
mod tests;
