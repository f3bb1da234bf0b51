//! A figure as one PNG: what the page shows of a chart (its canvases, SVGs and pictures, the
//! legend and labels written beside or over them in HTML) redrawn onto one canvas, in the
//! order and at the places the page lays them out, with a caption line under it.
//!
//! The page's own DOM is the one source of what a figure looks like, so that every chart
//! (canvas or SVG) exports the same way and a legend cannot be left out. The browser calls go
//! through `Reflect` and the functions the page already imports: each web-sys method bound
//! anew adds to the script every first visit downloads (src/story/parts.rs), this code does
//! not.

use crate::charts::format::fixed;
use crate::dom::js::{call, get, number};
use js_sys::{Promise, Reflect};
use leptos::prelude::document;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{CanvasRenderingContext2d, Element, HtmlCanvasElement};

/// Empty space around the figure and the caption line's height, in CSS pixels.
const PAD: f64 = 14.0;
const CAPTION: f64 = 30.0;

/// A box in CSS pixels of the viewport.
#[derive(Debug, Clone, Copy, Default)]
struct Area {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

impl Area {
    fn of(node: &JsValue) -> Self {
        let r = call(node, "getBoundingClientRect", &[]);
        Area { x: number(&r, "left"), y: number(&r, "top"), w: number(&r, "width"), h: number(&r, "height") }
    }

    fn union(self, other: Area) -> Area {
        if self.w <= 0.0 || self.h <= 0.0 {
            return other;
        }
        let (x, y) = (self.x.min(other.x), self.y.min(other.y));
        let (r, b) = ((self.x + self.w).max(other.x + other.w), (self.y + self.h).max(other.y + other.h));
        Area { x, y, w: r - x, h: b - y }
    }
}

/// One element's computed style.
struct Style(JsValue);

impl Style {
    fn of(element: &JsValue) -> Self {
        let window: JsValue = leptos::prelude::window().into();
        Style(call(&window, "getComputedStyle", &[element]))
    }

    fn get(&self, property: &str) -> String {
        call(&self.0, "getPropertyValue", &[&JsValue::from_str(property)]).as_string().unwrap_or_default()
    }

    fn px(&self, property: &str) -> f64 {
        let value = js_sys::parse_float(&self.get(property));
        if value.is_finite() {
            value
        } else {
            0.0
        }
    }

    /// A colour that shows: not `transparent`, not alpha 0.
    fn colour(&self, property: &str) -> Option<String> {
        let colour = self.get(property);
        let clear = colour.is_empty() || colour == "transparent" || colour.replace(' ', "").ends_with(",0)");
        (!clear).then_some(colour)
    }
}

/// What the figure is made of, in painting order.
enum Paint {
    /// A canvas or a picture (an `<img>`, or an SVG once loaded), stretched over its box.
    Picture {
        source: JsValue,
        at: Area,
        pixelated: bool,
    },
    /// An SVG, serialised with its computed look, as a data URL to load.
    Svg {
        url: String,
        at: Area,
    },
    Fill {
        colour: String,
        at: Area,
        round: bool,
    },
    /// A border: all round, or only the top one (a legend's line sample).
    Border {
        colour: String,
        at: Area,
        width: f64,
        round: bool,
        top_only: bool,
        dashed: bool,
    },
    Text {
        text: String,
        font: (String, f64, String),
        colour: String,
        at: Area,
    },
}

/// The SVG presentation properties copied from the page's style sheet onto a serialised copy:
/// an SVG drawn as a picture sees no style sheet.
const SVG_LOOK: [&str; 18] = [
    "fill",
    "fill-opacity",
    "stroke",
    "stroke-width",
    "stroke-opacity",
    "stroke-dasharray",
    "stroke-linecap",
    "stroke-linejoin",
    "opacity",
    "font-family",
    "font-size",
    "font-weight",
    "font-style",
    "text-anchor",
    "dominant-baseline",
    "display",
    "visibility",
    "paint-order",
];

fn svg_url(svg: &Element, at: Area) -> String {
    let copy: Element = call(svg, "cloneNode", &[&JsValue::TRUE]).unchecked_into();
    let look = |from: &JsValue, to: &Element| {
        let style = Style::of(from);
        for property in SVG_LOOK {
            let value = style.get(property);
            if !value.is_empty() {
                let _ = to.set_attribute(property, &value);
            }
        }
    };
    look(svg, &copy);
    if let (Ok(originals), Ok(copies)) = (svg.query_selector_all("*"), copy.query_selector_all("*")) {
        for i in 0..originals.length().min(copies.length()) {
            if let (Some(from), Some(to)) = (originals.item(i), copies.item(i)) {
                look(&from, to.unchecked_ref());
            }
        }
    }
    let _ = copy.set_attribute("xmlns", "http://www.w3.org/2000/svg");
    let _ = copy.set_attribute("width", &fixed(at.w, 1));
    let _ = copy.set_attribute("height", &fixed(at.h, 1));
    // HTML serialisation writes a no-break space as an entity XML does not know.
    let text = get(&copy, "outerHTML").as_string().unwrap_or_default().replace("&nbsp;", "&#160;");
    format!("data:image/svg+xml;charset=utf-8,{}", String::from(js_sys::encode_uri_component(&text)))
}

/// Collects what `element` and its descendants paint, in document order.
fn collect(element: &Element, out: &mut Vec<Paint>) {
    let style = Style::of(element);
    if style.get("display") == "none" || style.get("visibility") == "hidden" {
        return;
    }
    let tag = element.tag_name().to_ascii_lowercase();
    let class = element.get_attribute("class").unwrap_or_default();
    let skipped = ["input", "select", "textarea", "script", "style", "details"].contains(&tag.as_str());
    if skipped || class.split(' ').any(|c| c == "visually-hidden" || c == "export") {
        return;
    }
    let at = Area::of(element);
    match tag.as_str() {
        "canvas" | "img" => {
            out.push(Paint::Picture { source: element.into(), at, pixelated: style.get("image-rendering") != "auto" });
            return;
        }
        "svg" => {
            out.push(Paint::Svg { url: svg_url(element, at), at });
            return;
        }
        _ => {}
    }
    let round = at.w > 0.0 && style.px("border-top-left-radius") >= at.w.min(at.h) / 2.0 - 0.5;
    if let Some(colour) = style.colour("background-color") {
        out.push(Paint::Fill { colour, at, round });
    }
    let width = style.px("border-top-width");
    if let (true, Some(colour)) = (width > 0.0 && style.get("border-top-style") != "none", style.colour("border-top-color")) {
        let top_only = style.px("border-bottom-width") == 0.0;
        out.push(Paint::Border { colour, at, width, round, top_only, dashed: style.get("border-top-style") == "dashed" });
    }
    let font = (format!("{} {}", style.get("font-style"), style.get("font-weight")), style.px("font-size"), style.get("font-family"));
    let colour = style.get("color");
    let children = get(element, "childNodes");
    for i in 0..number(&children, "length") as u32 {
        let child = Reflect::get_u32(&children, i).unwrap_or(JsValue::UNDEFINED);
        match number(&child, "nodeType") as u32 {
            1 => collect(child.unchecked_ref(), out),
            3 => words(&child, &font, &colour, out),
            _ => {}
        }
    }
}

/// A text node's words, each where the page has put it (so wrapped lines stay wrapped).
fn words(node: &JsValue, font: &(String, f64, String), colour: &str, out: &mut Vec<Paint>) {
    let data = get(node, "data").as_string().unwrap_or_default();
    let units: Vec<u16> = data.encode_utf16().collect();
    let range = call(&document().into(), "createRange", &[]);
    let mut start = None;
    let mut offset = 0;
    for c in data.chars().chain([' ']) {
        if !c.is_whitespace() {
            start = start.or(Some(offset));
        } else if let Some(from) = start.take() {
            call(&range, "setStart", &[node, &JsValue::from(from as u32)]);
            call(&range, "setEnd", &[node, &JsValue::from(offset as u32)]);
            let at = Area::of(&range);
            if at.w > 0.0 {
                let text = String::from_utf16_lossy(&units[from..offset]);
                out.push(Paint::Text { text, font: font.clone(), colour: colour.to_string(), at });
            }
        }
        offset += c.len_utf16();
    }
}

/// The figure made of `parts` (elements of the page), with `caption` under it, as a PNG data
/// URL; `None` if nothing of it shows.
pub async fn figure_png(parts: &[Element], caption: &str) -> Option<String> {
    let area = parts.iter().map(|p| Area::of(p)).fold(Area::default(), Area::union);
    if area.w <= 0.0 || area.h <= 0.0 {
        return None;
    }
    let mut paints = Vec::new();
    for part in parts {
        collect(part, &mut paints);
    }
    // The SVGs become pictures; one that cannot load is left out.
    for paint in paints.iter_mut() {
        if let Paint::Svg { url, at } = paint {
            let image = document().create_element("img").ok()?;
            let _ = Reflect::set(&image, &"src".into(), &JsValue::from_str(url));
            let loaded = JsFuture::from(call(&image, "decode", &[]).unchecked_into::<Promise>()).await;
            let at = *at;
            *paint = match loaded {
                Ok(_) => Paint::Picture { source: image.into(), at, pixelated: false },
                Err(_) => Paint::Fill { colour: "transparent".into(), at, round: false },
            };
        }
    }
    // Twice the CSS size at least: sharp on slides and retina screens.
    let scale = leptos::prelude::window().device_pixel_ratio().clamp(2.0, 3.0);
    let (width, height) = (area.w + 2.0 * PAD, area.h + 2.0 * PAD + CAPTION);
    let canvas: HtmlCanvasElement = document().create_element("canvas").ok()?.unchecked_into();
    canvas.set_width((width * scale).ceil() as u32);
    canvas.set_height((height * scale).ceil() as u32);
    let context: CanvasRenderingContext2d = canvas.get_context("2d").ok()??.unchecked_into();
    // The card's background and text colours: the first ancestor that has a background.
    let mut background = None;
    let mut up = parts.first().cloned();
    while let (None, Some(element)) = (&background, up) {
        background = Style::of(&element).colour("background-color");
        up = get(&element, "parentElement").dyn_into().ok();
    }
    let ink = parts.first().map(|p| Style::of(p).get("color")).unwrap_or_default();
    context.set_fill_style_str(&background.unwrap_or_else(|| "#fff".into()));
    context.fill_rect(0.0, 0.0, canvas.width() as f64, canvas.height() as f64);
    let place = |a: &Area| ((a.x - area.x + PAD) * scale, (a.y - area.y + PAD) * scale, a.w * scale, a.h * scale);
    for paint in &paints {
        match paint {
            Paint::Picture { source, at, pixelated } => {
                let (x, y, w, h) = place(at);
                context.set_image_smoothing_enabled(!pixelated);
                // drawImage takes canvases and images alike; the page binds it for canvases.
                let _ = context.draw_image_with_html_canvas_element_and_dw_and_dh(source.unchecked_ref(), x, y, w, h);
                context.set_image_smoothing_enabled(true);
            }
            Paint::Svg { .. } => {}
            Paint::Fill { colour, at, round } => {
                let (x, y, w, h) = place(at);
                context.set_fill_style_str(colour);
                if *round {
                    context.begin_path();
                    let _ = context.arc(x + w / 2.0, y + h / 2.0, w.min(h) / 2.0, 0.0, std::f64::consts::TAU);
                    context.fill();
                } else {
                    context.fill_rect(x, y, w, h);
                }
            }
            Paint::Border { colour, at, width, round, top_only, dashed } => {
                let (x, y, w, h) = place(at);
                let line = width * scale;
                context.set_stroke_style_str(colour);
                context.set_line_width(line);
                context.begin_path();
                if *round {
                    let _ = context.arc(x + w / 2.0, y + h / 2.0, (w.min(h) - line) / 2.0, 0.0, std::f64::consts::TAU);
                } else if *top_only {
                    let y = y + line / 2.0;
                    let dash = if *dashed { 3.0 * line } else { w };
                    let mut from = x;
                    while from < x + w {
                        context.move_to(from, y);
                        context.line_to((from + dash).min(x + w), y);
                        from += 2.0 * dash;
                    }
                } else {
                    context.stroke_rect(x + line / 2.0, y + line / 2.0, w - line, h - line);
                }
                context.stroke();
            }
            Paint::Text { text, font: (style, size, family), colour, at } => {
                let (x, y, _, h) = place(at);
                // The page's own words, in its language already.
                context.set_font(&format!("{style} {}px {family}", fixed(size * scale, 1)));
                context.set_fill_style_str(colour);
                context.set_text_baseline("alphabetic");
                let metrics = context.measure_text(text).ok()?;
                let (ascent, descent) = (metrics.font_bounding_box_ascent(), metrics.font_bounding_box_descent());
                let _ = context.fill_text(text, x, y + (h - ascent - descent) / 2.0 + ascent);
            }
        }
    }
    // The caption: one line, smaller type if it would not fit.
    let caption = &crate::i18n::say(caption);
    let mut size = 14.0;
    loop {
        context.set_font(&format!("600 {}px sans-serif", fixed(size * scale, 1)));
        let fits = context.measure_text(caption).map_or(true, |m| m.width() <= (width - 2.0 * PAD) * scale);
        if fits || size <= 8.0 {
            break;
        }
        size -= 1.0;
    }
    context.set_fill_style_str(&ink);
    context.set_text_baseline("middle");
    let _ = context.fill_text(caption, PAD * scale, (height - CAPTION / 2.0 - 4.0) * scale);
    canvas.to_data_url().ok()
}
